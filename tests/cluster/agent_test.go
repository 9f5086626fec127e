package cluster

// The agent against the real control plane: what it publishes is what the real
// kube-scheduler allocates from, and it keeps publishing the right thing
// through the faults a cluster throws at it. docs/dra/agent.md is the
// contract these tests hold the agent to.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/utils/ptr"
)

// The two fake GPUs of the VA-API tests, in fake-machine's order: GPU 0 at
// 0000:01:00.0 states no HEVC Main10 decoding (Haswell's i965 decodes no HEVC
// at all), GPU 1 at 0000:02:00.0 does (Comet Lake's iHD). The one that
// decodes it is second, so a scheduler that took the first fitting render
// node would pick the wrong GPU.
var (
	vaDumps = []string{
		"intel-i965-haswell-desktop.txt",
		"intel-ihd-cometlake-uhd630-free-21.1.txt",
	}
	vaDeviceNames = []string{"pci-0000-01-00-0", "pci-0000-02-00-0"}
	hevc10Device  = "pci-0000-02-00-0"
)

// An Ada GeForce under driver 570: the consumer cap of branches 550 to 589 is 8
// encode sessions (docs/probe/nvidia.md).
const geforceRecord = "ada-geforce-rtx4090.json"

// agentNode is a Node with what the agent on it needs, and what it must publish.
type agentNode struct {
	name    string
	dir     string // the test's files for this node: token, kubeconfigs
	machine machine
	id      identity
	want    []resourcev1.Device // the devices the agent must publish: probe's
	others  []string            // slices of other drivers on this node, which nobody may touch
	// The resourceVersions of the versions of the agent's slice that the test
	// itself wrote, as a second writer: those may lack a device.
	testWrites map[string]bool
}

// setUpNode creates the Node, the agent's pod and identity, and the fake
// machine's expected devices; with liken, also liken's slice of the node's
// render nodes. Every node also gets a slice of another driver, which the
// tests check the agent never touches.
func setUpNode(t *testing.T, c *cluster, name string, m machine, liken bool) *agentNode {
	t.Helper()
	ctx := context.Background()
	if out, err := exec.Command("./create-node", c.dir, name).CombinedOutput(); err != nil {
		t.Fatalf("create-node %s: %v\n%s", name, err, out)
	}
	n := &agentNode{name: name, dir: t.TempDir(), machine: m, testWrites: map[string]bool{}}
	n.id = agentIdentity(t, c, n.dir, name)
	n.want = probeDevices(t, m)
	if liken {
		slice := likenSlice(name, len(n.want))
		if _, err := c.admin.ResourceV1().ResourceSlices().Create(ctx, slice, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		n.others = append(n.others, slice.Name)
	}
	other := otherDriverSlice(name)
	if _, err := c.admin.ResourceV1().ResourceSlices().Create(ctx, other, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	n.others = append(n.others, other.Name)
	waitForThePolicy(t, n.id, name)
	return n
}

// likenSlice is the slice liken's machine operator publishes for a node with
// gpus fake-machine GPUs (docs/dra/agent.md, liken's render nodes): per GPU, the render node itself (renderNode: true, shareable) and
// its exclusive display companion, with the PCI identity as string attributes
// and resource.kubernetes.io/pciBusID.
//
// Liken owns its slice by the Node; this one has no owner, so that it outlives
// the fault test's deletion of the Node. A liken whose slice the garbage
// collector took would publish it again for the new Node, and meanwhile the
// agent would rightly publish no render nodes; the fault under test is the
// Node's new UID, not liken's render nodes coming and going.
func likenSlice(node string, gpus int) *resourcev1.ResourceSlice {
	str := func(s string) resourcev1.DeviceAttribute { return resourcev1.DeviceAttribute{StringValue: ptr.To(s)} }
	var devices []resourcev1.Device
	for i := range gpus {
		address := fmt.Sprintf("0000:%02x:00.0", i+1)
		name := "pci-" + strings.NewReplacer(":", "-", ".", "-").Replace(address)
		identity := map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
			"bus":                             str("pci"),
			"address":                         str(address),
			"driver":                          str("i915"),
			"subsystem":                       str("drm"),
			"vendor":                          str("8086"),
			"product":                         str("46a6"),
			"resource.kubernetes.io/pciBusID": str(address),
		}
		render := map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"renderNode": {BoolValue: ptr.To(true)}}
		display := map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{"displayNode": {BoolValue: ptr.To(true)}}
		for k, v := range identity {
			render[k], display[k] = v, v
		}
		devices = append(devices,
			resourcev1.Device{Name: name, Attributes: render, AllowMultipleAllocations: ptr.To(true)},
			resourcev1.Device{Name: name + "-display", Attributes: display})
	}
	return &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: node + "-" + likenDriver},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:   likenDriver,
			NodeName: ptr.To(node),
			Pool:     resourcev1.ResourcePool{Name: node, Generation: 1, ResourceSliceCount: 1},
			Devices:  devices,
		},
	}
}

// otherDriverSlice stands for another DRA driver on the same node, such as a
// GPU driver publishing the same GPU under its own name.
func otherDriverSlice(node string) *resourcev1.ResourceSlice {
	return &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: node + "-gpu.example.com"},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:   "gpu.example.com",
			NodeName: ptr.To(node),
			Pool:     resourcev1.ResourcePool{Name: node, Generation: 1, ResourceSliceCount: 1},
			Devices: []resourcev1.Device{{Name: "gpu-0", Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
				"resource.kubernetes.io/pciBusID": {StringValue: ptr.To("0000:01:00.0")},
			}}},
		},
	}
}

func (n *agentNode) sliceName() string { return n.name + "-" + agentDriver }

// startAgent runs the agent for this node with kubeconfig (the direct one when empty).
func (n *agentNode) startAgent(t *testing.T, kubeconfig string, extraArgs ...string) *agent {
	t.Helper()
	if kubeconfig == "" {
		kubeconfig = n.id.kubeconfig
	}
	a := startAgent(t, agentOptions{kubeconfig: kubeconfig, node: n.name, machine: n.machine, extraArgs: extraArgs})
	a.acceptRegistration(t)
	return a
}

// slicesProblem says what is wrong with the agent's slices of the node now,
// or nil when they are what docs/dra/agent.md says: one slice named
// <node>-media.liken.sh in a pool named after the node, owned by the Node as
// it is now (its current UID), holding exactly the devices the probe finds.
func (n *agentNode) slicesProblem(c *cluster) error {
	ctx := context.Background()
	node, err := c.admin.CoreV1().Nodes().Get(ctx, n.name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	list, err := c.admin.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{
		FieldSelector: fields.Set{"spec.driver": agentDriver, "spec.nodeName": n.name}.String(),
	})
	if err != nil {
		return err
	}
	if len(list.Items) != 1 || list.Items[0].Name != n.sliceName() {
		var names []string
		for _, s := range list.Items {
			names = append(names, s.Name)
		}
		return fmt.Errorf("the node's %s slices are %v, want [%s]", agentDriver, names, n.sliceName())
	}
	s := list.Items[0]
	if s.Spec.Pool.Name != n.name || s.Spec.Pool.ResourceSliceCount != 1 {
		return fmt.Errorf("pool %+v, want name %s and resourceSliceCount 1", s.Spec.Pool, n.name)
	}
	owners := s.OwnerReferences
	if len(owners) != 1 || owners[0].Kind != "Node" || owners[0].Name != n.name || owners[0].UID != node.UID ||
		owners[0].Controller == nil || !*owners[0].Controller {
		return fmt.Errorf("owner references %+v, want the controller reference to Node %s uid %s", owners, n.name, node.UID)
	}
	return devicesProblem(s.Spec.Devices, n.want)
}

// devicesProblem compares published devices with the probe's, by name.
func devicesProblem(got, want []resourcev1.Device) error {
	byName := map[string]resourcev1.Device{}
	for _, d := range got {
		byName[d.Name] = d
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d devices %v, want %d %v", len(got), deviceNames(got), len(want), deviceNames(want))
	}
	for _, w := range want {
		g, ok := byName[w.Name]
		if !ok {
			return fmt.Errorf("devices %v lack %s", deviceNames(got), w.Name)
		}
		for k, wa := range w.Attributes {
			if ga, ok := g.Attributes[k]; !ok || !apiequality.Semantic.DeepEqual(ga, wa) {
				return fmt.Errorf("%s: attribute %s is %s, the probe says %s", w.Name, k, attr(g.Attributes, k), attr(w.Attributes, k))
			}
		}
		for k := range g.Attributes {
			if _, ok := w.Attributes[k]; !ok {
				return fmt.Errorf("%s: attribute %s=%s, which the probe does not publish", w.Name, k, attr(g.Attributes, k))
			}
		}
		if !apiequality.Semantic.DeepEqual(g.Capacity, w.Capacity) {
			return fmt.Errorf("%s: capacity %+v, the probe says %+v", w.Name, g.Capacity, w.Capacity)
		}
		if !apiequality.Semantic.DeepEqual(g.AllowMultipleAllocations, w.AllowMultipleAllocations) {
			return fmt.Errorf("%s: allowMultipleAllocations %v, the probe says %v", w.Name,
				ptr.Deref(g.AllowMultipleAllocations, false), ptr.Deref(w.AllowMultipleAllocations, false))
		}
	}
	return nil
}

func attr(attrs map[resourcev1.QualifiedName]resourcev1.DeviceAttribute, k resourcev1.QualifiedName) string {
	a, ok := attrs[k]
	switch {
	case !ok:
		return "(absent)"
	case a.BoolValue != nil:
		return fmt.Sprint(*a.BoolValue)
	case a.StringValue != nil:
		return fmt.Sprintf("%q", *a.StringValue)
	case a.IntValue != nil:
		return fmt.Sprint(*a.IntValue)
	case a.VersionValue != nil:
		return "version " + *a.VersionValue
	}
	return "(empty)"
}

func deviceNames(devices []resourcev1.Device) []string {
	var names []string
	for _, d := range devices {
		names = append(names, d.Name)
	}
	sort.Strings(names)
	return names
}

// waitForTheRightSlices waits until the agent's slices are right.
func (n *agentNode) waitForTheRightSlices(t *testing.T, c *cluster, timeout time.Duration) {
	t.Helper()
	waitFor(t, timeout, "the agent's slices of "+n.name+" as docs/dra/agent.md has them", func() (bool, error) {
		err := n.slicesProblem(c)
		return err == nil, err
	})
}

// resourceVersions reads the resourceVersion of each of the named slices.
func resourceVersions(t *testing.T, c *cluster, names []string) map[string]string {
	t.Helper()
	rvs := map[string]string{}
	for _, name := range names {
		s, err := c.admin.ResourceV1().ResourceSlices().Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("slice %s: %v", name, err)
		}
		rvs[name] = s.ResourceVersion
	}
	return rvs
}

// checkHistory holds the agent to the promises that no single look at the
// server can check, over every version etcd stored since history began:
//   - each version of the node's media.liken.sh slices that the agent wrote
//     (every one but the test's own edits) held every device the probe finds, so no scheduler ever saw a GPU missing because a query or
//     a request failed (a deletion is not a version: then the node's devices
//     are unknown, not absent);
//   - no slice of another driver was written after its creation.
func checkHistory(t *testing.T, history *sliceHistory, nodes ...*agentNode) {
	t.Helper()
	versions := history.sync(t)
	for _, n := range nodes {
		count := 0
		for _, v := range versions {
			if v.slice == nil || v.slice.Spec.Driver != agentDriver || ptr.Deref(v.slice.Spec.NodeName, "") != n.name ||
				n.testWrites[strconv.FormatInt(v.revision, 10)] {
				continue
			}
			count++
			have := deviceNames(v.slice.Spec.Devices)
			for _, w := range deviceNames(n.want) {
				if !slices.Contains(have, w) {
					t.Errorf("version %d of %s (pool generation %d, written %s) lacks device %s: it holds %v",
						v.revision, v.name, v.slice.Spec.Pool.Generation, v.at.Format("15:04:05.000"), w, have)
				}
			}
		}
		t.Logf("%s: etcd stored %d versions of its %s slices, each checked", n.name, count, agentDriver)
		for _, other := range n.others {
			if vs := versionsOf(versions, other); len(vs) > 1 {
				for _, v := range vs[1:] {
					t.Errorf("slice %s of another driver was written after its creation, at revision %d (deleted: %v)",
						other, v.revision, v.slice == nil)
				}
			}
		}
	}
}

// checkNeverRefused fails the test when the API refused one of the agent's
// writes: a write refused by RBAC or by the admission policy would mean the
// agent tried what deploy/ does not let it do. A read (a watch, a list or a
// GET) refused right after an apiserver restart is the restarted server's RBAC
// cache still filling (every ClusterRole "not found"); the agent retries, and
// that is logged here, not failed. A read refused for good fails elsewhere:
// the slice would never be right again.
func checkNeverRefused(t *testing.T, a *agent) {
	t.Helper()
	for _, line := range a.linesSince(0, `\b403\b|Forbidden|forbidden`) {
		if strings.HasPrefix(line, "watch: ") || strings.HasPrefix(line, "api: GET ") {
			t.Logf("a read refused, and tried again: %s", line)
		} else {
			t.Errorf("the API refused the agent: %s", line)
		}
	}
}

// podScheduled returns the pod's PodScheduled condition, if it has one.
func podScheduled(pod *corev1.Pod) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodScheduled {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// claimOf returns the ResourceClaim the controller-manager made for a pod's
// only claim from a template.
func claimOf(t *testing.T, c *cluster, pod *corev1.Pod) *resourcev1.ResourceClaim {
	t.Helper()
	if len(pod.Status.ResourceClaimStatuses) != 1 || pod.Status.ResourceClaimStatuses[0].ResourceClaimName == nil {
		t.Fatalf("pod %s: no generated claim in its status: %+v", pod.Name, pod.Status.ResourceClaimStatuses)
	}
	claim, err := c.admin.ResourceV1().ResourceClaims(pod.Namespace).Get(context.Background(),
		*pod.Status.ResourceClaimStatuses[0].ResourceClaimName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return claim
}

// waitForUnschedulable waits for the scheduler to give up on a pod for now,
// and returns its reason, from the PodScheduled condition and from the
// FailedScheduling event, which is where `kubectl describe pod` shows it.
func waitForUnschedulable(t *testing.T, c *cluster, namespace, name string) (condition, event string) {
	t.Helper()
	ctx := context.Background()
	waitFor(t, 60*time.Second, name+" marked unschedulable", func() (bool, error) {
		pod, err := c.admin.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if pod.Spec.NodeName != "" {
			t.Fatalf("%s was bound to %s", name, pod.Spec.NodeName)
		}
		if cond := podScheduled(pod); cond != nil && cond.Status == corev1.ConditionFalse && cond.Reason == corev1.PodReasonUnschedulable {
			condition = cond.Message
			return true, nil
		}
		return false, fmt.Errorf("conditions %+v", pod.Status.Conditions)
	})
	waitFor(t, 30*time.Second, "a FailedScheduling event of "+name, func() (bool, error) {
		events, err := c.admin.CoreV1().Events(namespace).List(ctx, metav1.ListOptions{
			FieldSelector: fields.Set{"involvedObject.kind": "Pod", "involvedObject.name": name, "reason": "FailedScheduling"}.String(),
		})
		if err != nil || len(events.Items) == 0 {
			return false, err
		}
		event = events.Items[len(events.Items)-1].Message
		return true, nil
	})
	return condition, event
}

func kubectl(t *testing.T, c *cluster, args ...string) string {
	t.Helper()
	out, err := exec.Command(c.env["KUBECTL"], append([]string{"--kubeconfig", c.env["ADMIN_KUBECONFIG"]}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestTheSchedulerAllocatesByWhatTheAgentPublishes runs the agent on three
// nodes of one control plane, each with fake GPUs, and has the real
// kube-controller-manager make claims and the real kube-scheduler allocate
// them: by a capability (VA-API, render nodes from liken), and by the
// encodeSessions capacity (NVIDIA, render nodes from sysfs). The third node's
// GPUs fail their queries; they must be published, and never chosen.
func TestTheSchedulerAllocatesByWhatTheAgentPublishes(t *testing.T) {
	t.Parallel() // each test has a control plane of its own
	agentBinary(t)
	c := startCluster(t)
	ctx := context.Background()
	applyDeploy(t, c)
	history := recordSlices(t, c)

	va := setUpNode(t, c, "va-node", vaMachine(t, vaDumps...), true)
	nv := setUpNode(t, c, "encoder-node", nvidiaMachine(t, geforceRecord), false)
	// The same two GPUs on a third node, where the first one's driver hangs
	// and the second one's (the one that decodes HEVC Main10) crashes.
	broken := vaMachine(t, vaDumps...)
	broken.env = append(broken.env, "FAKEVA_MODE_renderD128=hang", "FAKEVA_MODE_renderD129=crash")
	broken.args = []string{"--query-deadline", "2"}
	bn := setUpNode(t, c, "broken-node", broken, true)
	nodes := []*agentNode{va, nv, bn}
	var others []string
	for _, n := range nodes {
		others = append(others, n.others...)
	}
	othersBefore := resourceVersions(t, c, others)
	// The agents start at once: each one's first publish is the slow part.
	begin := time.Now()
	vaAgent := va.startAgent(t, "")
	nvAgent := nv.startAgent(t, "", "--render-nodes", "sysfs")
	bnAgent := bn.startAgent(t, "")
	agents := []*agent{vaAgent, nvAgent, bnAgent}

	t.Run("TheAgentPublishesBothRenderNodesFromLikenWithWhatTheirDriversState", func(t *testing.T) {
		if got := deviceNames(va.want); !slices.Equal(got, vaDeviceNames) {
			t.Fatalf("the probe of the fake machine finds %v, want %v", got, vaDeviceNames)
		}
		for i, d := range va.want {
			want := d.Name == hevc10Device
			if got := d.Attributes["decodeHEVCMain10"].BoolValue; got == nil || *got != want {
				t.Fatalf("%s (%s): decodeHEVCMain10 %v, want %v", d.Name, vaDumps[i], attr(d.Attributes, "decodeHEVCMain10"), want)
			}
		}
		va.waitForTheRightSlices(t, c, 60*time.Second)
		t.Logf("va-node's slice is right %v after the agent started", time.Since(begin).Round(time.Millisecond))
		vaAgent.waitForLog(t, 0, `^slice: created va-node-media\.liken\.sh at generation [0-9]+ with 2 devices`, 10*time.Second)
	})

	t.Run("GPUsWhoseQueriesHangOrCrashArePublishedWithEveryCapabilityFalse", func(t *testing.T) {
		// docs/dra/agent.md: a query that fails publishes its GPU with every
		// capability false, never a slice without it.
		for _, d := range bn.want {
			for k, a := range d.Attributes {
				if a.BoolValue != nil && *a.BoolValue {
					t.Errorf("the probe says %s's %s is true after its query failed", d.Name, k)
				}
			}
		}
		bn.waitForTheRightSlices(t, c, 60*time.Second)
		bnAgent.waitForLog(t, 0, `^capabilities: pci-0000-01-00-0 .*deadline of 2 s`, 10*time.Second)
		bnAgent.waitForLog(t, 0, `^capabilities: pci-0000-02-00-0 .*killed by signal 11`, 10*time.Second)
	})

	t.Run("ThePodThatNeedsHEVCMain10GetsTheRenderNodeOfTheGPUThatDecodesIt", func(t *testing.T) {
		// The shipped example, unchanged: a render node from liken and the
		// media.liken.sh device of the same GPU (matchAttribute pciBusID)
		// whose driver decodes HEVC Main10.
		kubectl(t, c, "apply", "-n", "default", "-f", repoPath(t, "deploy", "examples", "decode-hevc10-vaapi.yaml"))
		var pod *corev1.Pod
		waitFor(t, 60*time.Second, "hevc10-vaapi-transcoder bound to a node", func() (bool, error) {
			var err error
			pod, err = c.admin.CoreV1().Pods("default").Get(ctx, "hevc10-vaapi-transcoder", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			return pod.Spec.NodeName != "", fmt.Errorf("conditions %+v", pod.Status.Conditions)
		})
		if pod.Spec.NodeName != va.name {
			t.Errorf("the pod was bound to %q, want %q", pod.Spec.NodeName, va.name)
		}
		claim := claimOf(t, c, pod)
		if claim.Status.Allocation == nil {
			t.Fatalf("claim %s of a bound pod has no allocation", claim.Name)
		}
		got := map[string]string{}
		for _, r := range claim.Status.Allocation.Devices.Results {
			got[r.Request] = r.Driver + "/" + r.Pool + "/" + r.Device
		}
		want := map[string]string{
			"gpu":     likenDriver + "/" + va.name + "/" + hevc10Device,
			"decodes": agentDriver + "/" + va.name + "/" + hevc10Device,
		}
		if !apiequality.Semantic.DeepEqual(got, want) {
			t.Errorf("claim %s allocated %v, want %v", claim.Name, got, want)
		}
	})

	t.Run("AClaimForACapabilityNoGPUHasStaysUnallocatedAndThePodSaysWhy", func(t *testing.T) {
		// The same claim as the example but for AV1 Main10, which neither
		// GPU's driver states.
		template := &resourcev1.ResourceClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{Name: "av1-10bit-vaapi-gpu", Namespace: "default"},
			Spec: resourcev1.ResourceClaimTemplateSpec{Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
				Requests: []resourcev1.DeviceRequest{
					{Name: "gpu", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "media-render"}},
					{Name: "decodes", Exactly: &resourcev1.ExactDeviceRequest{
						DeviceClassName: "media-capabilities",
						Selectors: []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{
							Expression: `device.attributes["media.liken.sh"].decodeAV1Main10`,
						}}},
					}},
				},
				Constraints: []resourcev1.DeviceConstraint{{
					Requests: []string{"gpu", "decodes"}, MatchAttribute: ptr.To[resourcev1.FullyQualifiedName]("resource.kubernetes.io/pciBusID"),
				}},
			}}},
		}
		if _, err := c.admin.ResourceV1().ResourceClaimTemplates("default").Create(ctx, template, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		pod := claimingPod("av1-10bit-transcoder", template.Name)
		if _, err := c.admin.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		condition, event := waitForUnschedulable(t, c, "default", pod.Name)
		t.Logf("PodScheduled=False: %s", condition)
		t.Logf("FailedScheduling event: %s", event)
		for _, text := range []string{condition, event} {
			if !strings.Contains(text, "cannot allocate all claims") {
				t.Errorf("the scheduler's reason %q does not name the claims", text)
			}
		}
		got, err := c.admin.CoreV1().Pods("default").Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if claim := claimOf(t, c, got); claim.Status.Allocation != nil {
			t.Errorf("claim %s was allocated: %+v", claim.Name, claim.Status.Allocation)
		}
	})

	t.Run("NinePodsOfOneEncodeSessionEachOnAnEightSessionGeForceLeaveTheNinthWaiting", func(t *testing.T) {
		nv.waitForTheRightSlices(t, c, 60*time.Second)
		nvAgent.waitForLog(t, 0, `^slice: created encoder-node-media\.liken\.sh at generation [0-9]+ with 1 devices?`, 10*time.Second)
		if len(nv.want) != 1 {
			t.Fatalf("the probe of the GeForce's machine finds %v, want one device", deviceNames(nv.want))
		}
		if got := nv.want[0].Capacity["encodeSessions"].Value; got.Cmp(resource.MustParse("8")) != 0 {
			t.Fatalf("the GeForce's encodeSessions capacity is %s, want 8", got.String())
		}
		// deploy/examples/encode-sessions.yaml's request, less its render node
		// from liken: in sysfs mode no liken runs, and this GeForce's record
		// has no render node.
		template := &resourcev1.ResourceClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{Name: "one-encode-session", Namespace: "default"},
			Spec: resourcev1.ResourceClaimTemplateSpec{Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{
				Requests: []resourcev1.DeviceRequest{{Name: "encoder", Exactly: &resourcev1.ExactDeviceRequest{
					DeviceClassName: "media-encode",
					Capacity: &resourcev1.CapacityRequirements{Requests: map[resourcev1.QualifiedName]resource.Quantity{
						"encodeSessions": resource.MustParse("1"),
					}},
				}}},
			}}},
		}
		if _, err := c.admin.ResourceV1().ResourceClaimTemplates("default").Create(ctx, template, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		var names []string
		for i := 1; i <= 9; i++ {
			pod := claimingPod(fmt.Sprintf("encoder-%d", i), template.Name)
			if _, err := c.admin.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			names = append(names, pod.Name)
		}
		var bound, waiting []*corev1.Pod
		waitFor(t, 90*time.Second, "eight encoders bound and the ninth unschedulable", func() (bool, error) {
			bound, waiting = nil, nil
			for _, name := range names {
				pod, err := c.admin.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{})
				if err != nil {
					return false, err
				}
				cond := podScheduled(pod)
				switch {
				case pod.Spec.NodeName != "":
					bound = append(bound, pod)
				case cond != nil && cond.Status == corev1.ConditionFalse && cond.Reason == corev1.PodReasonUnschedulable:
					waiting = append(waiting, pod)
				}
			}
			if len(bound) > 8 {
				t.Fatalf("%d encoders bound on eight sessions", len(bound))
			}
			return len(bound) == 8 && len(waiting) == 1, fmt.Errorf("%d bound, %d unschedulable", len(bound), len(waiting))
		})
		shareIDs := map[string]bool{}
		for _, pod := range bound {
			if pod.Spec.NodeName != nv.name {
				t.Errorf("%s was bound to %s, want %s", pod.Name, pod.Spec.NodeName, nv.name)
			}
			claim := claimOf(t, c, pod)
			if claim.Status.Allocation == nil || len(claim.Status.Allocation.Devices.Results) != 1 {
				t.Fatalf("%s: claim %s not allocated: %+v", pod.Name, claim.Name, claim.Status)
			}
			r := claim.Status.Allocation.Devices.Results[0]
			if r.Driver != agentDriver || r.Pool != nv.name || r.Device != nv.want[0].Name {
				t.Errorf("%s: allocated %s/%s/%s, want %s/%s/%s", pod.Name, r.Driver, r.Pool, r.Device, agentDriver, nv.name, nv.want[0].Name)
			}
			if got := r.ConsumedCapacity["encodeSessions"]; got.Cmp(resource.MustParse("1")) != 0 {
				t.Errorf("%s: consumed encodeSessions %s, want 1", pod.Name, got.String())
			}
			if r.ShareID == nil || shareIDs[string(*r.ShareID)] {
				t.Errorf("%s: share ID %v is missing or not unique", pod.Name, r.ShareID)
			} else {
				shareIDs[string(*r.ShareID)] = true
			}
		}
		last := waiting[0]
		if claim := claimOf(t, c, last); claim.Status.Allocation != nil {
			t.Errorf("%s waits, yet its claim %s is allocated", last.Name, claim.Name)
		}
		t.Logf("%s waits: %s", last.Name, podScheduled(last).Message)
	})

	t.Run("TheAgentsWroteNothingButTheirOwnSlicesAndNeverADeviceShort", func(t *testing.T) {
		checkHistory(t, history, nodes...)
		if after := resourceVersions(t, c, others); !apiequality.Semantic.DeepEqual(after, othersBefore) {
			t.Errorf("other drivers' slices changed: resourceVersions %v, before %v", after, othersBefore)
		}
		for _, a := range agents {
			checkNeverRefused(t, a)
		}
	})

	t.Run("TheAgentsAreReadyAndStopCleanlyOnSIGTERMLeavingTheirSlices", func(t *testing.T) {
		scrapes := t.TempDir()
		for i, a := range agents {
			if status, body := a.readyz(t); status != 200 {
				t.Errorf("/readyz answered %d %q, want 200", status, body)
			}
			// A ready agent's metrics say so, as the alerts of deploy/monitoring/ read them.
			text := a.metrics(t)
			for _, ready := range []string{"mc_agent_slices_published", "mc_agent_kubelet_plugin_registered"} {
				if !regexp.MustCompile(`(?m)^` + ready + `\{node="[^"]+"\} 1$`).MatchString(text) {
					t.Errorf("a ready agent's /metrics lacks %s 1:\n%s", ready, text)
				}
			}
			if err := os.WriteFile(filepath.Join(scrapes, fmt.Sprintf("agent-%d.prom", i)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			a.stop(t)
		}
		checkMonitoring(t, scrapes)
		for _, n := range nodes {
			if err := n.slicesProblem(c); err != nil {
				t.Errorf("after the agent stopped: %v", err)
			}
		}
	})

	t.Run("AnAgentStartedAgainOverItsRightSliceWritesNothing", func(t *testing.T) {
		// docs/dra/agent.md: every slice write wakes the scheduler, so a new pod
		// of the DaemonSet takes over the slice as it is.
		before := resourceVersions(t, c, []string{va.sliceName()})
		again := va.startAgent(t, "")
		waitFor(t, 30*time.Second, "/readyz answering 200", func() (bool, error) {
			status, body := again.readyz(t)
			return status == 200, fmt.Errorf("%d %q", status, body)
		})
		if after := resourceVersions(t, c, []string{va.sliceName()}); !apiequality.Semantic.DeepEqual(after, before) {
			t.Errorf("the slice was written: resourceVersion %v, before %v", after, before)
		}
		if writes := again.linesSince(0, `^slice: `); len(writes) > 0 {
			t.Errorf("the agent wrote:\n%s", strings.Join(writes, "\n"))
		}
		again.stop(t)
	})
}

// checkMonitoring holds the alerts and dashboards of deploy/monitoring/ to the
// agents' live scrapes in dir: every agent metric and label they name is there
// (tests/deploy/monitoring/check-monitoring, docs/monitoring.md).
func checkMonitoring(t *testing.T, dir string) {
	t.Helper()
	scrapes, err := filepath.Glob(filepath.Join(dir, "*.prom"))
	if err != nil || len(scrapes) == 0 {
		t.Fatalf("no scrape in %s: %v", dir, err)
	}
	out, err := exec.Command(repoPath(t, "tests/deploy/monitoring/check-monitoring"), scrapes...).CombinedOutput()
	if err != nil {
		t.Errorf("check-monitoring on the agents' scrapes: %v\n%s", err, out)
	}
}

// claimingPod is a pod with one claim from a template, as the examples have it.
func claimingPod(name, template string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: corev1.PodSpec{
			ResourceClaims: []corev1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: ptr.To(template)}},
			Containers: []corev1.Container{{
				Name: "work", Image: "debian:bookworm-slim",
				Resources: corev1.ResourceRequirements{Claims: []corev1.ResourceClaim{{Name: "gpu"}}},
			}},
		},
	}
}

// faultNode is one control plane with one node for the fault tests: every
// version of the slices etcd stores is recorded from the start, and the
// versions of the other drivers' slices on the node are kept, so that the end
// can show each version held both GPUs and no other driver's slice was written.
type faultNode struct {
	c            *cluster
	n            *agentNode
	history      *sliceHistory
	othersBefore map[string]string
}

func newFaultNode(t *testing.T) *faultNode {
	agentBinary(t)
	c := startCluster(t)
	applyDeploy(t, c)
	history := recordSlices(t, c)
	n := setUpNode(t, c, "fault-node", vaMachine(t, vaDumps...), true)
	return &faultNode{c: c, n: n, history: history, othersBefore: resourceVersions(t, c, n.others)}
}

// step runs one fault as a subtest. The faults build on each other, so once
// the agent's slice is wrong after one, the rest are not tried.
func (f *faultNode) step(t *testing.T, name string, fault func(t *testing.T)) {
	if !t.Run(name, fault) && f.n.slicesProblem(f.c) != nil {
		t.FailNow()
	}
}

// checkTheWholeRun checks the history of the run that the agents made.
func (f *faultNode) checkTheWholeRun(t *testing.T, agents ...*agent) {
	t.Run("EveryVersionHeldBothGPUsAndNoOtherDriversSliceWasTouched", func(t *testing.T) {
		checkHistory(t, f.history, f.n)
		if after := resourceVersions(t, f.c, f.n.others); !apiequality.Semantic.DeepEqual(after, f.othersBefore) {
			t.Errorf("other drivers' slices changed: resourceVersions %v, before %v", after, f.othersBefore)
		}
		for _, a := range agents {
			checkNeverRefused(t, a)
		}
	})
}

// TestTheAgentConvergesAfterEveryFault runs one agent on one node through one
// fault of the control plane and of other writers after another. After each
// the agent's slice must be right again; over the whole test, every version
// etcd stored must have held both GPUs, and the slices of liken and of another
// driver on the node must never have been written.
func TestTheAgentConvergesAfterEveryFault(t *testing.T) {
	t.Parallel() // each test has a control plane of its own
	f := newFaultNode(t)
	c, n := f.c, f.n
	ctx := context.Background()
	slicesAPI := c.admin.ResourceV1().ResourceSlices()
	a := n.startAgent(t, "")

	// deleteTheSlice deletes the agent's slice as the kubelet does when it
	// restarts, and waits for the agent to publish it again.
	deleteTheSlice := func(t *testing.T, a *agent) {
		t.Helper()
		mark := a.mark()
		old, err := slicesAPI.Get(ctx, n.sliceName(), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := slicesAPI.Delete(ctx, n.sliceName(), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		a.waitForLog(t, mark, `^slice: created fault-node-media\.liken\.sh at generation [0-9]+ with 2 devices`, 60*time.Second)
		n.waitForTheRightSlices(t, c, 30*time.Second)
		if s, err := slicesAPI.Get(ctx, n.sliceName(), metav1.GetOptions{}); err == nil && s.UID == old.UID {
			t.Errorf("the slice has its old UID %s: it was never deleted", s.UID)
		}
	}
	// outage stops a component with a write waiting in the agent: the agent is
	// paused, its slice deleted, the component stopped, and only then is the
	// agent let go, so its first attempt to publish the slice again meets the
	// outage. The agent must keep trying and publish once the component is back.
	outage := func(t *testing.T, component string, down time.Duration) {
		t.Helper()
		a.pause()
		resumed := false
		defer func() {
			if !resumed {
				a.resume()
			}
		}()
		if err := slicesAPI.Delete(ctx, n.sliceName(), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		mark := a.mark()
		run(t, "stop-control-plane", c.dir, component)
		a.resume()
		resumed = true
		time.Sleep(down)
		begin := time.Now()
		run(t, "start-control-plane", c.dir)
		t.Logf("%s back in %v", component, time.Since(begin).Round(time.Millisecond))
		n.waitForTheRightSlices(t, c, 90*time.Second)
		t.Logf("the agent published again %v after %s was back", time.Since(begin).Round(time.Millisecond), component)
		for _, line := range a.linesSince(mark, `^(api|watch): `) {
			t.Logf("agent: %s", line)
		}
		// Its watch of its own slice is back: a deletion is repaired again.
		deleteTheSlice(t, a)
	}

	step := func(name string, fault func(t *testing.T)) { f.step(t, name, fault) }

	step("TheAgentPublishesItsSliceThroughTheRealPermissions", func(t *testing.T) {
		n.waitForTheRightSlices(t, c, 60*time.Second)
		a.waitForLog(t, 0, `^slice: created fault-node-media\.liken\.sh at generation [0-9]+ with 2 devices`, 10*time.Second)
	})

	step("AnApiserverRestartedMidRun", func(t *testing.T) {
		mark := a.mark()
		outage(t, "kube-apiserver", 3*time.Second)
		if retries := a.linesSince(mark, `^api: .*retrying in `); len(retries) == 0 {
			t.Errorf("the agent logged no `api: ... retrying in` line while the apiserver was down")
		}
	})

	step("AnApiserverRestartWithNothingToRepairWritesNothing", func(t *testing.T) {
		// The common restart: the agent's watches end, it lists again, finds
		// its slice right, and writes nothing (every write wakes the scheduler).
		before := resourceVersions(t, c, []string{n.sliceName()})
		mark := a.mark()
		run(t, "stop-control-plane", c.dir, "kube-apiserver")
		run(t, "start-control-plane", c.dir)
		// The agent's watch of its slices comes back within its backoff (a
		// few seconds here, often before start-control-plane returns); the
		// restarted apiserver usually answers its old resourceVersion with
		// 410, and the agent lists again. When it resumed its watch instead,
		// there is no line to wait for, and the wait ends at its deadline.
		deadline := time.Now().Add(15 * time.Second)
		for time.Now().Before(deadline) && len(a.linesSince(mark, `^watch: resourceslices spec\.driver=media\.liken\.sh.*listing again`)) == 0 {
			time.Sleep(200 * time.Millisecond)
		}
		time.Sleep(2 * time.Second)
		if after := resourceVersions(t, c, []string{n.sliceName()}); !apiequality.Semantic.DeepEqual(after, before) {
			t.Errorf("the slice was written: resourceVersion %v, before %v", after, before)
		}
		if writes := a.linesSince(mark, `^slice: `); len(writes) > 0 {
			t.Errorf("the agent wrote:\n%s", strings.Join(writes, "\n"))
		}
	})

	step("EtcdStoppedAndStarted", func(t *testing.T) {
		outage(t, "etcd", 3*time.Second)
	})

	step("TheAgentsSliceDeletedByHandIsPublishedAgain", func(t *testing.T) {
		deleteTheSlice(t, a)
	})

	step("ASecondWritersEditIsWrittenBack", func(t *testing.T) {
		// Another writer says the GPU that decodes HEVC Main10 does not: a
		// lie the scheduler would act on.
		s, err := slicesAPI.Get(ctx, n.sliceName(), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Spec.Devices {
			if s.Spec.Devices[i].Name == hevc10Device {
				s.Spec.Devices[i].Attributes["decodeHEVCMain10"] = resourcev1.DeviceAttribute{BoolValue: ptr.To(false)}
			}
		}
		mark := a.mark()
		edited, err := slicesAPI.Update(ctx, s, metav1.UpdateOptions{FieldManager: "second-writer"})
		if err != nil {
			t.Fatal(err)
		}
		n.testWrites[edited.ResourceVersion] = true
		a.waitForLog(t, mark, `^slice: updated fault-node-media\.liken\.sh at generation [0-9]+ with 2 devices`, 60*time.Second)
		n.waitForTheRightSlices(t, c, 30*time.Second)
		got, err := slicesAPI.Get(ctx, n.sliceName(), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec.Pool.Generation <= edited.Spec.Pool.Generation {
			t.Errorf("the agent wrote the slice back at pool generation %d, not above the edited %d (docs/dra/agent.md: a change moves the generation up)",
				got.Spec.Pool.Generation, edited.Spec.Pool.Generation)
		}
	})

	step("AStraySliceOfTheAgentsDriverAndNodeIsDeleted", func(t *testing.T) {
		stray := &resourcev1.ResourceSlice{
			ObjectMeta: metav1.ObjectMeta{Name: n.sliceName() + "-stray"},
			Spec: resourcev1.ResourceSliceSpec{
				Driver:   agentDriver,
				NodeName: ptr.To(n.name),
				Pool:     resourcev1.ResourcePool{Name: n.name + "-stray", Generation: 1, ResourceSliceCount: 1},
			},
		}
		mark := a.mark()
		created, err := slicesAPI.Create(ctx, stray, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n.testWrites[created.ResourceVersion] = true
		a.waitForLog(t, mark, `^slice: deleted fault-node-media\.liken\.sh-stray`, 60*time.Second)
		n.waitForTheRightSlices(t, c, 30*time.Second)
	})

	step("TheNodeDeletedAndCreatedAgainGetsSlicesOwnedByItsNewUID", func(t *testing.T) {
		old, err := c.admin.CoreV1().Nodes().Get(ctx, n.name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		mark := a.mark()
		if err := c.admin.CoreV1().Nodes().Delete(ctx, n.name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		// The garbage collector deletes the slice that the old Node owned.
		waitFor(t, 60*time.Second, "the garbage collector deleting the old Node's slice", func() (bool, error) {
			_, err := slicesAPI.Get(ctx, n.sliceName(), metav1.GetOptions{})
			return apierrors.IsNotFound(err), err
		})
		// Made again at once: the agent's pod (bound to the node by name)
		// survives only a short absence, as pod GC waits 40 s before it
		// deletes a pod whose node is gone, and with it its token's validity.
		out, err := exec.Command("./create-node", c.dir, n.name).CombinedOutput()
		if err != nil {
			t.Fatalf("create-node: %v\n%s", err, out)
		}
		uid := strings.TrimSpace(string(out))
		if uid == string(old.UID) {
			t.Fatalf("the new Node has the old UID %s", uid)
		}
		n.waitForTheRightSlices(t, c, 90*time.Second)
		a.waitForLog(t, mark, `^slice: created fault-node-media\.liken\.sh at generation [0-9]+ with 2 devices`, 10*time.Second)
		t.Logf("old Node uid %s, new %s", old.UID, uid)
	})

	step("TheAgentStopsCleanlyAndLeavesItsSlice", func(t *testing.T) {
		a.stop(t)
		if err := n.slicesProblem(c); err != nil {
			t.Errorf("after the agent stopped: %v", err)
		}
	})

	f.checkTheWholeRun(t, a)
}

// TestTheAgentRetriesWhatAFaultProxyRefuses runs an agent whose every request
// goes through a proxy that fails the writes it is told to: the server down at
// the agent's start, writes answered 429 and 500, a long Retry-After, and then
// silence. The slice must converge after each, with every version whole.
func TestTheAgentRetriesWhatAFaultProxyRefuses(t *testing.T) {
	t.Parallel() // each test has a control plane of its own
	f := newFaultNode(t)
	c, n := f.c, f.n
	ctx := context.Background()
	slicesAPI := c.admin.ResourceV1().ResourceSlices()
	step := func(name string, fault func(t *testing.T)) { f.step(t, name, fault) }

	// The agent starts while the proxy does not listen yet: an agent whose
	// server is down at its start.
	proxy := newFaultProxy(t, c)
	b := n.startAgent(t, n.id.writeKubeconfig(t, filepath.Join(n.dir, "proxied.kubeconfig"), proxy.url()))

	step("AnAgentWhoseServerIsDownAtStartPublishesOnceItIsUp", func(t *testing.T) {
		first := b.waitForLog(t, 0, `^(api|watch): .*retrying in `, 30*time.Second)
		second := b.waitForLog(t, b.mark(), `^(api|watch): .*retrying in `, 30*time.Second)
		t.Logf("while the server is down:\n%s\n%s", first, second)
		if status, body := b.readyz(t); status != 503 {
			t.Errorf("/readyz answered %d %q with the server down, want 503", status, body)
		} else {
			t.Logf("/readyz with the server down: %d %s", status, body)
		}
		if _, err := slicesAPI.Get(ctx, n.sliceName(), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Fatalf("a slice exists while the agent's server is down: %v", err)
		}
		begin := time.Now()
		proxy.start(t)
		n.waitForTheRightSlices(t, c, 90*time.Second)
		t.Logf("published %v after the server came up", time.Since(begin).Round(time.Millisecond))
		waitFor(t, 30*time.Second, "/readyz answering 200", func() (bool, error) {
			status, body := b.readyz(t)
			return status == 200, fmt.Errorf("%d %q", status, body)
		})
	})

	// throughFaults arms the proxy to fail the next three slice writes with
	// status, makes the agent write (by deleting its slice, or editing it),
	// and checks that it retried each, logged it, and converged.
	throughFaults := func(t *testing.T, status int, provoke func(t *testing.T)) []time.Duration {
		t.Helper()
		const faults = 3
		mark := b.mark()
		proxy.failWrites(faults, status, 1)
		begin := time.Now()
		provoke(t)
		// docs/dra/agent.md: /readyz says whether the slices hold what the
		// queries found; while the writes are refused, they do not.
		waitFor(t, 30*time.Second, "/readyz answering 503 while the writes are refused", func() (bool, error) {
			status, body := b.readyz(t)
			return status == 503, fmt.Errorf("%d %q", status, body)
		})
		waitFor(t, 60*time.Second, fmt.Sprintf("the agent's %d writes answered %d", faults, status), func() (bool, error) {
			_, left := proxy.faultTimes()
			return left == 0, fmt.Errorf("%d faults not yet served", left)
		})
		n.waitForTheRightSlices(t, c, 60*time.Second)
		t.Logf("converged %v after the first write was refused", time.Since(begin).Round(time.Millisecond))
		waitFor(t, 30*time.Second, "/readyz answering 200 again", func() (bool, error) {
			status, body := b.readyz(t)
			return status == 200, fmt.Errorf("%d %q", status, body)
		})
		retries := b.linesSince(mark, `^api: (POST|PUT) /apis/resource\.k8s\.io/v1/resourceslices.*; retrying in [0-9]+ s$`)
		for _, line := range retries {
			t.Logf("agent: %s", line)
		}
		if len(retries) < faults {
			t.Errorf("the agent logged %d `api: ...; retrying in N s` lines for %d refused writes", len(retries), faults)
		}
		// docs/dra/agent.md's line names the status (`api: PUT ...: HTTP 500: ...;
		// retrying in 2 s`); the Status body the apiserver sends does not.
		for _, line := range retries {
			if !regexp.MustCompile(fmt.Sprintf(`: HTTP %d: `, status)).MatchString(line) {
				t.Errorf("the line does not name the status %d, as docs/dra/agent.md's does: %s", status, line)
				break
			}
		}
		answered, _ := proxy.faultTimes()
		var gaps []time.Duration
		for i := 1; i < len(answered); i++ {
			gaps = append(gaps, answered[i].Sub(answered[i-1]).Round(time.Millisecond))
		}
		t.Logf("between the refused attempts: %v", gaps)
		return gaps
	}

	step("WritesAnswered429AreRetriedAfterRetryAfter", func(t *testing.T) {
		gaps := throughFaults(t, 429, func(t *testing.T) {
			if err := slicesAPI.Delete(ctx, n.sliceName(), metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		})
		for _, g := range gaps {
			if g < 900*time.Millisecond {
				t.Errorf("a retry came %v after a 429 with Retry-After: 1", g)
			}
		}
	})

	step("WritesAnswered500AreRetriedWithABackoff", func(t *testing.T) {
		gaps := throughFaults(t, 500, func(t *testing.T) {
			s, err := slicesAPI.Get(ctx, n.sliceName(), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s.Spec.Devices = s.Spec.Devices[:1] // a second writer drops a GPU
			edited, err := slicesAPI.Update(ctx, s, metav1.UpdateOptions{FieldManager: "second-writer"})
			if err != nil {
				t.Fatal(err)
			}
			n.testWrites[edited.ResourceVersion] = true
		})
		// docs/dra/agent.md: the backoff starts at 1 s and doubles.
		for i, g := range gaps {
			if floor := time.Duration(900*(1<<i)) * time.Millisecond; g < floor {
				t.Errorf("retry %d came %v after the previous 500, want at least %v", i+2, g, floor)
			}
		}
	})

	step("ARetryAfterLongerThanTheBackoffIsWaitedOut", func(t *testing.T) {
		// docs/dra/agent.md: the backoff starts at 1 s, and the server's
		// Retry-After wins when it is longer.
		proxy.failWrites(1, 429, 3)
		if err := slicesAPI.Delete(ctx, n.sliceName(), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		n.waitForTheRightSlices(t, c, 60*time.Second)
		writes := proxy.writeTimes()
		if len(writes) != 2 {
			t.Fatalf("%d slice writes for one refusal and one create", len(writes))
		}
		if gap := writes[1].Sub(writes[0]); gap < 2900*time.Millisecond {
			t.Errorf("the agent wrote again %v after a 429 with Retry-After: 3", gap.Round(time.Millisecond))
		} else {
			t.Logf("the agent wrote again %v after a 429 with Retry-After: 3", gap.Round(time.Millisecond))
		}
	})

	step("AnIdleAgentSendsNoRequest", func(t *testing.T) {
		// docs/dra/agent.md: while nothing changes the agent sends nothing but
		// its open watches. A second to settle, then five of silence.
		time.Sleep(time.Second)
		before := proxy.requestCount()
		time.Sleep(5 * time.Second)
		if sent := proxy.requestCount() - before; sent != 0 {
			t.Errorf("the idle agent sent %d requests in 5 s", sent)
		}
	})

	f.checkTheWholeRun(t, b)

	t.Run("TheProxiedAgentStopsCleanly", func(t *testing.T) {
		b.stop(t)
		if left := processesOf(n.machine.dir); len(left) > 0 {
			t.Errorf("still running after the agents stopped:\n%s", strings.Join(left, "\n"))
		}
	})
}
