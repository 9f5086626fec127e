package cluster

// A render node that liken publishes after the agent's pod was made: the pod's
// claim was allocated before the node existed, so its /dev lacks it, and only a
// new pod brings it in. The agent evicts its own pod; the real DaemonSet
// controller makes a new one, whose new claim the real scheduler allocates with
// every render node; and the guard keeps a pod that still lacks the node from
// being evicted again at once.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// daemonSetPod waits for the DaemonSet's pod on node other than `not`, bound
// and with its claim allocated, and returns it.
func daemonSetPod(t *testing.T, c *cluster, node string, not *corev1.Pod) *corev1.Pod {
	t.Helper()
	var found *corev1.Pod
	waitFor(t, 90*time.Second, "the DaemonSet's pod on "+node+" bound with its claim allocated", func() (bool, error) {
		pods, err := c.admin.CoreV1().Pods(agentNamespace).List(context.Background(), metav1.ListOptions{
			LabelSelector: "app.kubernetes.io/name=media-capabilities"})
		if err != nil {
			return false, err
		}
		for i := range pods.Items {
			pod := &pods.Items[i]
			if (not != nil && pod.UID == not.UID) || pod.Spec.NodeName != node || pod.DeletionTimestamp != nil {
				continue
			}
			if len(pod.Status.ResourceClaimStatuses) != 1 || pod.Status.ResourceClaimStatuses[0].ResourceClaimName == nil {
				return false, fmt.Errorf("pod %s has no claim yet", pod.Name)
			}
			if claim := claimOf(t, c, pod); claim.Status.Allocation == nil {
				return false, fmt.Errorf("the claim of pod %s is not allocated", pod.Name)
			}
			found = pod
			return true, nil
		}
		return false, fmt.Errorf("%d pods, none bound to %s", len(pods.Items), node)
	})
	return found
}

// allocatedDevices lists the devices the pod's claim was allocated.
func allocatedDevices(t *testing.T, c *cluster, pod *corev1.Pod) []string {
	t.Helper()
	var names []string
	for _, result := range claimOf(t, c, pod).Status.Allocation.Devices.Results {
		names = append(names, result.Driver+"/"+result.Device)
	}
	slices.Sort(names)
	return names
}

// waitForReady waits for /readyz to answer 200: the slices hold what the
// queries found. The agent decides on its own eviction before it publishes, so
// a ready agent that has not evicted its pod has decided not to.
func (a *agent) waitForReady(t *testing.T) {
	t.Helper()
	waitFor(t, 60*time.Second, "the agent ready", func() (bool, error) {
		code, body := a.readyz(t)
		return code == 200, fmt.Errorf("/readyz answered %d: %s", code, body)
	})
}

func TestTheAgentEvictsItsOwnPodForANewRenderNodeAndItsNewPodHoldsIt(t *testing.T) {
	t.Parallel() // each test has a control plane of its own
	agentBinary(t)
	c := startCluster(t)
	ctx := context.Background()
	const node = "eviction-node"
	if out, err := exec.Command("./create-node", c.dir, node).CombinedOutput(); err != nil {
		t.Fatalf("create-node: %v\n%s", err, out)
	}
	// The machine has two GPUs, but liken publishes only the first at first, and
	// the pod's /dev has only the first: the second's render node appears later.
	m := vaMachine(t, vaDumps...)
	secondNode := filepath.Join(m.dev(), "dri", "renderD129")
	if err := os.Remove(secondNode); err != nil {
		t.Fatal(err)
	}
	liken := likenSlice(node, 1)
	liken, err := c.admin.ResourceV1().ResourceSlices().Create(ctx, liken, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The whole base, the DaemonSet and its claim template included: the real
	// DaemonSet controller makes the agent's pod, and the scheduler allocates its claim.
	kubectl(t, c, "apply", "--server-side", "-k", repoPath(t, "deploy"))
	first := daemonSetPod(t, c, node, nil)
	if got, want := allocatedDevices(t, c, first), []string{"liken.sh/pci-0000-01-00-0"}; !slices.Equal(got, want) {
		t.Fatalf("the first pod's claim holds %v, want %v", got, want)
	}

	// The kubelet's plugin directory outlives the pods, as the host path does:
	// the guard's record is kept there.
	kubelet, err := os.MkdirTemp("", "mc-kubelet-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(kubelet) })
	plugins, registry := filepath.Join(kubelet, "plugins"), filepath.Join(kubelet, "registry")
	runAs := func(pod *corev1.Pod) *agent {
		id := podIdentity(t, c, t.TempDir(), pod)
		waitForThePolicy(t, id, node)
		a := startAgent(t, agentOptions{kubeconfig: id.kubeconfig, node: node, machine: m,
			pluginsDir: plugins, registryDir: registry,
			extraArgs: []string{"--pod-name", pod.Name, "--pod-namespace", pod.Namespace}})
		a.acceptRegistration(t)
		return a
	}

	a := runAs(first)
	a.waitForReady(t)
	if lines := a.linesSince(0, `evicted its own pod`); len(lines) > 0 {
		t.Fatalf("the agent evicted its pod with every render node in it: %v", lines)
	}

	// liken publishes the second render node.
	mark := a.mark()
	liken.Spec.Devices = likenSlice(node, 2).Spec.Devices
	liken.Spec.Pool.Generation = 2
	if _, err := c.admin.ResourceV1().ResourceSlices().Update(ctx, liken, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	line := a.waitForLog(t, mark, `^agent: pci-0000-02-00-0 is not in this pod's /dev .*evicted its own pod liken-system/`+first.Name, 60*time.Second)
	t.Logf("the agent: %s", line)
	evicted, err := c.admin.CoreV1().Pods(agentNamespace).Get(ctx, first.Name, metav1.GetOptions{})
	if err != nil || evicted.DeletionTimestamp == nil {
		t.Fatalf("the evicted pod %s is not being deleted: %v", first.Name, err)
	}
	// What the kubelet would do with the evicted pod: stop its container, then
	// confirm the deletion.
	a.stop(t)
	if err := c.admin.CoreV1().Pods(agentNamespace).Delete(ctx, first.Name,
		metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
		t.Fatal(err)
	}

	second := daemonSetPod(t, c, node, first)
	want := []string{"liken.sh/pci-0000-01-00-0", "liken.sh/pci-0000-02-00-0"}
	if got := allocatedDevices(t, c, second); !slices.Equal(got, want) {
		t.Fatalf("the new pod %s's claim holds %v, want %v", second.Name, got, want)
	}
	t.Logf("the DaemonSet made %s, whose claim holds %v", second.Name, want)

	// Suppose liken's plugin still did not put the node into the new pod: the
	// guard's record holds one eviction, so the new agent waits instead of
	// evicting again.
	record, err := os.ReadFile(filepath.Join(plugins, agentDriver, "render-node-evictions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		RenderNodes map[string]struct {
			Evictions int `json:"evictions"`
		} `json:"render_nodes"`
	}
	if err := json.Unmarshal(record, &parsed); err != nil || parsed.RenderNodes["pci-0000-02-00-0"].Evictions != 1 {
		t.Fatalf("the guard's record is %s (%v), want one eviction for pci-0000-02-00-0", record, err)
	}
	b := runAs(second)
	b.waitForReady(t)
	t.Logf("the new agent: %s", b.waitForLog(t, 0, `^agent: warning: pci-0000-02-00-0 is still not in this pod's /dev.*next eviction is due in 1[45] min`, 10*time.Second))
	if lines := b.linesSince(0, `evicted its own pod`); len(lines) > 0 {
		t.Fatalf("the new pod was evicted again at once: %v", lines)
	}
	if pod, err := c.admin.CoreV1().Pods(agentNamespace).Get(ctx, second.Name, metav1.GetOptions{}); err != nil || pod.DeletionTimestamp != nil {
		t.Fatalf("the new pod %s is gone or going (%v)", second.Name, err)
	}
	b.stop(t)
}
