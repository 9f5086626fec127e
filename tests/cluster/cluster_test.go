// Package cluster holds the smoke test of the test control plane: it starts
// the real upstream etcd, kube-apiserver, kube-controller-manager and
// kube-scheduler with start-control-plane, proves that each one does its part
// for DRA, and stops them with stop-control-plane.
//
// The first run builds the binaries (build-control-plane), which takes far
// longer than go test's default 10 minutes: run it as
//
//	go test -timeout 60m ./...
//
// or run ./build-control-plane once beforehand.
package cluster

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
)

const (
	driver    = "smoke.example.com"
	nodeName  = "smoke-node"
	namespace = "default"
	agentUser = "system:serviceaccount:liken-system:media-capabilities"
)

// cluster is one running control plane, from start-control-plane.
type cluster struct {
	dir   string
	env   map[string]string
	admin kubernetes.Interface
	agent kubernetes.Interface
}

// run runs one of the scripts beside this file, its output going to the test log.
func run(t *testing.T, script string, args ...string) {
	t.Helper()
	runWith(t, nil, script, args...)
}

// runWith runs a script as run does, with env added to this process's environment.
func runWith(t *testing.T, env []string, script string, args ...string) {
	t.Helper()
	cmd := exec.Command("./"+script, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("%s %s:\n%s", script, strings.Join(args, " "), out)
	if err != nil {
		t.Fatalf("%s %s: %v", script, strings.Join(args, " "), err)
	}
}

// buildIfMissing builds the binaries unless they are cached, and refuses to
// start a build that the test's deadline would cut short: a build killed half
// way leaves nothing, and the next run would only start over.
func buildIfMissing(t *testing.T) {
	t.Helper()
	if exec.Command("./build-control-plane", "--check").Run() == nil {
		return
	}
	// About 8 to 10 minutes on a 2-core machine from nothing (README.md);
	// three times that leaves room for a busier machine.
	const needed = 30 * time.Minute
	if deadline, ok := t.Deadline(); ok && time.Until(deadline) < needed {
		t.Fatalf("the control-plane binaries are not built yet and building them may take %v, "+
			"but this test must end in %v: run ./build-control-plane first, or go test -timeout 60m",
			needed, time.Until(deadline).Round(time.Second))
	}
	t.Log("building the control plane (build-control-plane); this takes a long time the first time")
	cmd := exec.Command("./build-control-plane")
	cmd.Stderr = os.Stderr // progress as it happens, not only at the end
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("build-control-plane: %v (%s)", err, out)
	}
}

// startCluster starts a control plane of the test's own, with env added to the
// start script's environment (EXTRA_FEATURE_GATES=...).
func startCluster(t *testing.T, env ...string) *cluster {
	t.Helper()
	buildIfMissing(t)
	dir := t.TempDir()
	t.Cleanup(func() {
		_ = exec.Command("./stop-control-plane", dir).Run()
		if t.Failed() { // the logs go with the temporary directory: keep their ends
			for _, name := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"} {
				out, _ := exec.Command("tail", "-n", "25", filepath.Join(dir, "logs", name+".log")).CombinedOutput()
				t.Logf("the end of %s.log:\n%s", name, out)
			}
		}
	})
	begin := time.Now()
	runWith(t, env, "start-control-plane", dir)
	t.Logf("control plane ready in %v", time.Since(begin).Round(time.Millisecond))

	c := &cluster{dir: dir, env: readEnv(t, filepath.Join(dir, "cluster.env"))}
	c.admin = client(t, filepath.Join(dir, "admin.kubeconfig"))
	c.agent = client(t, filepath.Join(dir, "agent.kubeconfig"))
	return c
}

func readEnv(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := map[string]string{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), "=")
		if ok && !strings.HasPrefix(k, "#") {
			env[k] = strings.Trim(v, "'")
		}
	}
	return env
}

func client(t *testing.T, kubeconfig string) kubernetes.Interface {
	t.Helper()
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := kubernetes.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// processesOf lists the live processes whose command line mentions dir.
func processesOf(dir string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), dir) {
			continue
		}
		status, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if strings.Contains(string(status), "State:\tZ") {
			continue
		}
		found = append(found, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return found
}

// waitFor polls check until it returns true, failing the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, check func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for time.Now().Before(deadline) {
		done, err := check()
		if done {
			return
		}
		lastErr = err
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s: not after %v (last error: %v)", what, timeout, lastErr)
}

func TestTheControlPlaneServesWhatTheDriverNeeds(t *testing.T) {
	t.Parallel() // each test has a control plane of its own
	c := startCluster(t)
	ctx := context.Background()

	t.Run("TheAgentTokenAuthenticatesAsTheServiceAccountThatDeployRBACBinds", func(t *testing.T) {
		review, err := c.agent.AuthenticationV1().SelfSubjectReviews().Create(ctx,
			&authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		info := review.Status.UserInfo
		if info.Username != agentUser {
			t.Errorf("agent token authenticates as %q, want %q", info.Username, agentUser)
		}
		if !contains(info.Groups, "system:serviceaccounts:liken-system") {
			t.Errorf("agent groups %v lack system:serviceaccounts:liken-system", info.Groups)
		}
		// Without deploy/'s RBAC the agent may do nothing: the tests that
		// apply it then exercise the real permissions, not an admin's.
		if _, err := c.agent.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{}); err == nil {
			t.Errorf("the agent could list ResourceSlices before any RBAC binds it")
		}
	})

	t.Run("ANodeCreatedByCreateNodeIsSchedulable", func(t *testing.T) {
		cmd := exec.Command("./create-node", c.dir, nodeName)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("create-node: %v: %s", err, out)
		}
		node, err := c.admin.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if uid := strings.TrimSpace(string(out)); uid != string(node.UID) {
			t.Errorf("create-node printed %q, the Node's UID is %q", uid, node.UID)
		}
		if len(node.Spec.Taints) != 0 {
			t.Errorf("new Node is tainted: %v", node.Spec.Taints)
		}
		if pods := node.Status.Allocatable.Pods(); pods.Value() == 0 {
			t.Errorf("new Node has no allocatable pods")
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	node, err := c.admin.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("AResourceSliceKeepsAllowMultipleAllocationsAndABoolAttribute", func(t *testing.T) {
		_, err := c.admin.ResourceV1().DeviceClasses().Create(ctx, &resourcev1.DeviceClass{
			ObjectMeta: metav1.ObjectMeta{Name: driver},
			Spec: resourcev1.DeviceClassSpec{Selectors: []resourcev1.DeviceSelector{{
				CEL: &resourcev1.CELDeviceSelector{Expression: fmt.Sprintf("device.driver == %q", driver)},
			}}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		slice := &resourcev1.ResourceSlice{
			ObjectMeta: metav1.ObjectMeta{
				Name: nodeName + "-" + driver,
				OwnerReferences: []metav1.OwnerReference{{
					APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID,
				}},
			},
			Spec: resourcev1.ResourceSliceSpec{
				Driver:   driver,
				NodeName: ptr.To(nodeName),
				Pool:     resourcev1.ResourcePool{Name: nodeName, Generation: 1, ResourceSliceCount: 1},
				Devices: []resourcev1.Device{{
					Name:                     "gpu0",
					AllowMultipleAllocations: ptr.To(true),
					Attributes: map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
						"decodeHEVCMain10": {BoolValue: ptr.To(true)},
					},
					Capacity: map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{
						"encodeSessions": {
							Value: resource.MustParse("2"),
							RequestPolicy: &resourcev1.CapacityRequestPolicy{
								Default: ptr.To(resource.MustParse("1")),
								ValidRange: &resourcev1.CapacityRequestPolicyRange{
									Min:  ptr.To(resource.MustParse("1")),
									Step: ptr.To(resource.MustParse("1")),
								},
							},
						},
					},
				}},
			},
		}
		if _, err := c.admin.ResourceV1().ResourceSlices().Create(ctx, slice, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		// Read back fresh from the server: a gate that is off would have
		// dropped allowMultipleAllocations and requestPolicy without an error.
		got, err := c.admin.ResourceV1().ResourceSlices().Get(ctx, slice.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d := got.Spec.Devices[0]
		if d.AllowMultipleAllocations == nil || !*d.AllowMultipleAllocations {
			t.Errorf("allowMultipleAllocations did not survive (DRAConsumableCapacity off?): %v", d.AllowMultipleAllocations)
		}
		if a := d.Attributes["decodeHEVCMain10"]; a.BoolValue == nil || !*a.BoolValue {
			t.Errorf("bool attribute decodeHEVCMain10 did not survive: %+v", a)
		}
		if d.Capacity["encodeSessions"].RequestPolicy == nil {
			t.Errorf("capacity requestPolicy did not survive (DRAConsumableCapacity off?)")
		}
		// kubectl, built beside the control plane, sees the same.
		out, err := exec.Command(c.env["KUBECTL"], "--kubeconfig", c.env["ADMIN_KUBECONFIG"],
			"get", "resourceslice", slice.Name,
			"-o", "jsonpath={.spec.devices[0].allowMultipleAllocations}").CombinedOutput()
		if err != nil || string(out) != "true" {
			t.Errorf("kubectl reads allowMultipleAllocations as %q (%v), want true", out, err)
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	// Two pods share the device, each consuming one of its two sessions; a
	// third finds none left. That takes the controller-manager (claims from the
	// template), the scheduler's DynamicResources plugin and consumable capacity.
	t.Run("TheSchedulerSharesOneDeviceByCapacityAndRefusesWhenItIsUsedUp", func(t *testing.T) {
		_, err := c.admin.ResourceV1().ResourceClaimTemplates(namespace).Create(ctx, &resourcev1.ResourceClaimTemplate{
			ObjectMeta: metav1.ObjectMeta{Name: "one-session"},
			Spec: resourcev1.ResourceClaimTemplateSpec{Spec: resourcev1.ResourceClaimSpec{
				Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{{
					Name: "encoder",
					Exactly: &resourcev1.ExactDeviceRequest{
						DeviceClassName: driver,
						Selectors: []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{
							Expression: fmt.Sprintf("device.attributes[%q].decodeHEVCMain10", driver),
						}}},
						Capacity: &resourcev1.CapacityRequirements{Requests: map[resourcev1.QualifiedName]resource.Quantity{
							"encodeSessions": resource.MustParse("1"),
						}},
					},
				}}},
			}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		createPod := func(name string) {
			t.Helper()
			_, err := c.admin.CoreV1().Pods(namespace).Create(ctx, &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{
						Name: "transcode", Image: "registry.k8s.io/pause:3.10", // never pulled: no kubelet
						Resources: corev1.ResourceRequirements{Claims: []corev1.ResourceClaim{{Name: "session"}}},
					}},
					ResourceClaims: []corev1.PodResourceClaim{{
						Name: "session", ResourceClaimTemplateName: ptr.To("one-session"),
					}},
				},
			}, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
		}
		shareIDs := map[string]bool{}
		for _, name := range []string{"transcoder-1", "transcoder-2"} {
			createPod(name)
			var pod *corev1.Pod
			waitFor(t, 60*time.Second, name+" bound to "+nodeName, func() (bool, error) {
				var err error
				pod, err = c.admin.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
				return err == nil && pod.Spec.NodeName == nodeName, err
			})
			if len(pod.Status.ResourceClaimStatuses) != 1 || pod.Status.ResourceClaimStatuses[0].ResourceClaimName == nil {
				t.Fatalf("%s: no generated claim in status: %+v", name, pod.Status.ResourceClaimStatuses)
			}
			claimName := *pod.Status.ResourceClaimStatuses[0].ResourceClaimName
			claim, err := c.admin.ResourceV1().ResourceClaims(namespace).Get(ctx, claimName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if claim.Status.Allocation == nil || len(claim.Status.Allocation.Devices.Results) != 1 {
				t.Fatalf("%s: claim %s not allocated: %+v", name, claimName, claim.Status)
			}
			r := claim.Status.Allocation.Devices.Results[0]
			if r.Driver != driver || r.Pool != nodeName || r.Device != "gpu0" {
				t.Errorf("%s: allocated %s/%s/%s, want %s/%s/gpu0", name, r.Driver, r.Pool, r.Device, driver, nodeName)
			}
			if r.ShareID == nil || shareIDs[string(*r.ShareID)] {
				t.Errorf("%s: share ID %v is missing or not unique", name, r.ShareID)
			} else {
				shareIDs[string(*r.ShareID)] = true
			}
			if got := r.ConsumedCapacity["encodeSessions"]; got.Cmp(resource.MustParse("1")) != 0 {
				t.Errorf("%s: consumed encodeSessions %v, want 1", name, got.String())
			}
		}

		createPod("transcoder-3")
		var reason string
		waitFor(t, 60*time.Second, "transcoder-3 marked unschedulable", func() (bool, error) {
			pod, err := c.admin.CoreV1().Pods(namespace).Get(ctx, "transcoder-3", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if pod.Spec.NodeName != "" {
				return false, fmt.Errorf("transcoder-3 was bound to %s with no session left", pod.Spec.NodeName)
			}
			for _, cond := range pod.Status.Conditions {
				if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse && cond.Reason == corev1.PodReasonUnschedulable {
					reason = cond.Message
					return true, nil
				}
			}
			return false, nil
		})
		t.Logf("transcoder-3 unschedulable: %s", reason)
	})

	// What the fault tests do: stop one component, start the rest again.
	t.Run("ARestartedApiserverComesBackAtTheSameAddressWithItsData", func(t *testing.T) {
		run(t, "stop-control-plane", c.dir, "kube-apiserver")
		if _, err := c.admin.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{}); err == nil {
			t.Fatalf("the apiserver still answers after stop-control-plane DIR kube-apiserver")
		}
		run(t, "start-control-plane", c.dir)
		if env := readEnv(t, filepath.Join(c.dir, "cluster.env")); env["APISERVER_URL"] != c.env["APISERVER_URL"] {
			t.Errorf("apiserver moved from %s to %s", c.env["APISERVER_URL"], env["APISERVER_URL"])
		}
		got, err := c.admin.ResourceV1().ResourceSlices().Get(ctx, nodeName+"-"+driver, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("the slice is gone after the restart: %v", err)
		}
		if d := got.Spec.Devices[0]; d.AllowMultipleAllocations == nil || !*d.AllowMultipleAllocations {
			t.Errorf("allowMultipleAllocations lost in the restart")
		}
	})

	t.Run("StopControlPlaneLeavesNothingRunning", func(t *testing.T) {
		begin := time.Now()
		run(t, "stop-control-plane", c.dir)
		t.Logf("stopped in %v", time.Since(begin).Round(time.Millisecond))
		if left := processesOf(c.dir); len(left) > 0 {
			t.Errorf("still running after stop-control-plane:\n%s", strings.Join(left, "\n"))
		}
		for _, name := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"} {
			if _, err := os.Stat(filepath.Join(c.dir, name+".pid")); err == nil {
				t.Errorf("%s.pid left behind", name)
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
