package cluster

// The interop test against the real kubelet code: the agent's kubelet plugin
// (build/media-capabilities agent) is found, registered, called and watched
// by the kubelet's own Go code at the pinned release, not by a client written
// here. tests/dra/plugin/ already checks each gRPC answer with a C++ client; only
// the kubelet's code can show that the kubelet accepts those answers: that it
// picks the plugin's registration socket up, takes its versions, prepares a
// claim the scheduler allocated, and reads the health stream.

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	drahealthv1 "k8s.io/kubelet/pkg/apis/dra-health/v1"
	drahealthv1alpha1 "k8s.io/kubelet/pkg/apis/dra-health/v1alpha1"
	drapbv1 "k8s.io/kubelet/pkg/apis/dra/v1"
	drapbv1beta1 "k8s.io/kubelet/pkg/apis/dra/v1beta1"
	"k8s.io/utils/ptr"
)

const (
	interopNode      = "interop-node"
	interopDriver    = "media.liken.sh"
	interopClaim     = "hevc10"
	interopPod       = "transcoder"
	interopContainer = "transcode"
)

// The fake machine: GPU i is pci-0000-0<i+1>-00-0 (tests/fakeva/fake-machine).
// Only the first decodes 10-bit HEVC, so a claim for that gets it; the third
// GPU's driver fails to initialise, so it is published unhealthy.
var interopGPUs = []struct {
	dump, device string
	healthy      bool
}{
	{"amd-radeonsi-navi22-rx6750xt.txt", "pci-0000-01-00-0", true},
	{"intel-i965-haswell-desktop.txt", "pci-0000-02-00-0", true},
	{"failed-init-i965-cometlake.txt", "pci-0000-03-00-0", false},
}

func TestTheKubeletsOwnCodeRegistersPreparesAndWatchesTheAgentsPlugin(t *testing.T) {
	t.Parallel() // each test has a control plane of its own
	// Before anything starts: without the agent there is nothing to test,
	// and saying so early beats a timeout later.
	agentBinary(t)

	c := startCluster(t)
	ctx := context.Background()
	run(t, "create-node", c.dir, interopNode)
	applyDeploy(t, c)

	// Unix socket paths may be at most 107 bytes, which a t.TempDir() under
	// this test's long name would come close to: the sockets get a short
	// directory of their own.
	socketDir, err := os.MkdirTemp("", "mc-interop-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(socketDir) })
	pluginsDir := filepath.Join(socketDir, "plugins")
	registryDir := filepath.Join(socketDir, "plugins_registry")
	endpoint := filepath.Join(pluginsDir, interopDriver, "dra.sock")

	// The kubelet first, as on a node: it wipes the node's slices at start-up
	// and watches an empty registry directory.
	kubelet := startInteropKubelet(t, c, interopNode, registryDir)

	var dumps []string
	for _, g := range interopGPUs {
		dumps = append(dumps, g.dump)
	}
	m := vaMachine(t, dumps...)
	id := agentIdentity(t, c, t.TempDir(), interopNode)
	waitForThePolicy(t, id, interopNode)
	agentProc := startAgent(t, agentOptions{
		kubeconfig:  id.kubeconfig,
		node:        interopNode,
		machine:     m,
		extraArgs:   []string{"--driver-name", interopDriver, "--render-nodes", "sysfs"},
		pluginsDir:  pluginsDir,
		registryDir: registryDir,
	})

	t.Run("TheKubeletsPluginManagerFindsTheRegistrationSocketAndRegistersThePlugin", func(t *testing.T) {
		calls := kubelet.handler.waitForCall(t, "RegisterPlugin", 60*time.Second)
		var methods []string
		for _, call := range calls {
			methods = append(methods, call.method)
			if call.err != nil {
				t.Errorf("the kubelet's %s failed: %v", call.method, call.err)
			}
			if call.name != interopDriver || call.endpoint != endpoint {
				t.Errorf("%s for plugin %q at %q, want %q at %q", call.method, call.name, call.endpoint, interopDriver, endpoint)
			}
		}
		// One validation, one registration: a retry would mean the kubelet
		// found something wrong the first time.
		if !slices.Equal(methods, []string{"ValidatePlugin", "RegisterPlugin"}) {
			t.Errorf("the kubelet's calls were %v, want [ValidatePlugin RegisterPlugin]", methods)
		}
		// A 1.37 kubelet takes the first DRAPlugin version it knows, and opens
		// a health stream only for a health service the plugin names.
		versions := calls[len(calls)-1].versions
		v1At, v1beta1At := slices.Index(versions, drapbv1.DRAPluginService), slices.Index(versions, drapbv1beta1.DRAPluginService)
		if v1At < 0 || v1beta1At < 0 || v1At > v1beta1At {
			t.Errorf("versions %q: want %s, and before it %s", versions, drapbv1beta1.DRAPluginService, drapbv1.DRAPluginService)
		}
		for _, health := range []string{drahealthv1.DRAResourceHealthService, drahealthv1alpha1.DRAResourceHealthService} {
			if !slices.Contains(versions, health) {
				t.Errorf("versions %q lack %s", versions, health)
			}
		}
		if _, err := kubelet.plugins.GetPlugin(interopDriver); err != nil {
			t.Errorf("after the registration the kubelet has no client for the driver: %v", err)
		}
		// NotifyRegistrationStatus comes last; the plugin logs it. Had the
		// kubelet failed to send it, it would have deregistered the plugin.
		agentProc.waitForLog(t, 0, regexp.QuoteMeta("the kubelet registered "+interopDriver+" at "+endpoint), 10*time.Second)
	})
	if t.Failed() {
		t.FailNow()
	}
	plugin, err := kubelet.plugins.GetPlugin(interopDriver)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("TheAgentPublishesEveryFakeGPUInItsNodesPool", func(t *testing.T) {
		var names []string
		waitFor(t, 60*time.Second, "the agent's slice with every GPU", func() (bool, error) {
			list, err := c.admin.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{
				FieldSelector: "spec.driver=" + interopDriver + ",spec.nodeName=" + interopNode,
			})
			if err != nil || len(list.Items) != 1 {
				return false, err
			}
			s := list.Items[0]
			if s.Spec.Pool.Name != interopNode {
				t.Fatalf("the slice's pool is %q, want the node's name %q", s.Spec.Pool.Name, interopNode)
			}
			names = names[:0]
			for _, d := range s.Spec.Devices {
				names = append(names, d.Name)
			}
			return len(names) == len(interopGPUs), nil
		})
		for i, g := range interopGPUs {
			if names[i] != g.device {
				t.Errorf("device %d is %q, want %q", i, names[i], g.device)
			}
		}
	})
	if t.Failed() {
		t.FailNow()
	}

	// The scheduler allocates the claim from the agent's slice and reserves it
	// for the pod, as for any workload; the kubelet's code then reads both
	// with the node's own credentials.
	claim, pod := allocateInteropClaim(t, c)

	t.Run("TheKubeletPreparesTheAllocatedClaimAndGetsNoCDIDevices", func(t *testing.T) {
		if err := kubelet.manager.PrepareResources(kubelet.ctx, pod); err != nil {
			t.Fatalf("the kubelet's PrepareResources: %v", err)
		}
		info, err := kubelet.manager.GetResources(pod, &pod.Spec.Containers[0])
		if err != nil {
			t.Fatalf("the kubelet's GetResources: %v", err)
		}
		// A media device hands the container no device node: the GPU itself
		// comes from the driver that delivers it (liken's render node, or
		// NVIDIA's), claimed beside ours.
		if len(info.CDIDevices) != 0 {
			t.Errorf("the container would get CDI devices %v, want none", info.CDIDevices)
		}
	})

	t.Run("TheKubeletShowsTheAllocatedDevicesHealthInThePodStatus", func(t *testing.T) {
		// The kubelet knows which devices a prepared claim holds only from the
		// plugin's prepare answer; its health stream (opened at registration)
		// then says how each one is. This is what a pod's
		// status.containerStatuses[].allocatedResourcesStatus shows.
		want := corev1.ResourceHealth{
			ResourceID: corev1.ResourceID(interopDriver + "/" + interopNode + "/" + interopGPUs[0].device),
			Health:     corev1.ResourceHealthStatusHealthy,
		}
		var got []corev1.ResourceStatus
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			status := &corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: interopContainer}}}
			kubelet.manager.UpdateAllocatedResourcesStatus(klog.FromContext(kubelet.ctx), pod, status)
			got = status.ContainerStatuses[0].AllocatedResourcesStatus
			if len(got) == 1 && len(got[0].Resources) == 1 &&
				got[0].Resources[0].ResourceID == want.ResourceID && got[0].Resources[0].Health == want.Health {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the kubelet reports %+v for the pod's container, want %s %s: it ties a device's health "+
					"to a pod only through the devices that the plugin's prepare answer names, in the pool that "+
					"the health stream names", got, want.ResourceID, want.Health)
			}
		}
		if got[0].Name != "claim:gpu" {
			t.Errorf("the status is for %q, want claim:gpu", got[0].Name)
		}
	})

	t.Run("APrepareOfAClaimReCreatedUnderTheSameNameFailsOnTheUIDAndSparesTheOthers", func(t *testing.T) {
		// Between the kubelet's read of a claim and the plugin's, the claim
		// may be deleted and made again under the same name: the plugin must
		// refuse the old UID. A claim that is gone is refused too; neither
		// may fail the real claim of the same batch.
		staleUID, currentUID := recreateInteropClaim(t, c, "recreated")
		goneUID := deletedInteropClaimUID(t, c, "gone")
		resp, err := plugin.NodePrepareResources(kubelet.ctx, &drapbv1.NodePrepareResourcesRequest{Claims: []*drapbv1.Claim{
			{Namespace: namespace, Name: "recreated", Uid: string(staleUID)},
			{Namespace: namespace, Name: "gone", Uid: string(goneUID)},
			{Namespace: namespace, Name: claim.Name, Uid: string(claim.UID)},
		}})
		if err != nil {
			t.Fatalf("NodePrepareResources through the kubelet's client: %v", err)
		}
		if len(resp.Claims) != 3 {
			t.Fatalf("answers for %d claims, want 3: %v", len(resp.Claims), resp.Claims)
		}
		stale := resp.Claims[string(staleUID)].GetError()
		t.Logf("the re-created claim's error: %s", stale)
		if !strings.Contains(strings.ToLower(stale), "uid") ||
			!strings.Contains(stale, string(staleUID)) || !strings.Contains(stale, string(currentUID)) {
			t.Errorf("the re-created claim's error %q does not name the UID mismatch (asked %s, the claim is now %s)",
				stale, staleUID, currentUID)
		}
		gone := resp.Claims[string(goneUID)].GetError()
		t.Logf("the deleted claim's error: %s", gone)
		if gone == "" {
			t.Errorf("a deleted claim was prepared")
		}
		allocated := resp.Claims[string(claim.UID)]
		if allocated.GetError() != "" {
			t.Errorf("the real claim failed beside the others: %s", allocated.GetError())
		}
		// The answer names the allocated device (and its share, since the
		// device allows several allocations), with no CDI device: the kubelet
		// learns from it which devices the pod holds, for the pod's health
		// status and the pod-resources API.
		result := claim.Status.Allocation.Devices.Results[0]
		devices := allocated.GetDevices()
		if len(devices) != 1 || devices[0].PoolName != result.Pool || devices[0].DeviceName != result.Device ||
			!slices.Equal(devices[0].RequestNames, []string{result.Request}) || len(devices[0].CdiDeviceIds) != 0 ||
			(result.ShareID != nil && devices[0].GetShareId() != string(*result.ShareID)) {
			t.Errorf("the real claim's answer names devices %v; want only %s/%s for request %s (share %v), with no CDI device",
				devices, result.Pool, result.Device, result.Request, ptr.Deref(result.ShareID, ""))
		}
	})

	t.Run("TheHealthStreamNamesEveryDeviceWithItsHealth", func(t *testing.T) {
		// The stream as the kubelet opens it: through its client, on the
		// health service it chose at registration (v1).
		streamCtx, cancel := context.WithTimeout(kubelet.ctx, 20*time.Second)
		defer cancel()
		stream, err := plugin.NodeWatchResources(streamCtx)
		if err != nil {
			t.Fatalf("NodeWatchResources: %v", err)
		}
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("the health stream's first message: %v", err)
		}
		checkInteropHealth(t, resp.GetDevices())
	})

	t.Run("TheServicesOlderKubeletsChooseAnswerTheSame", func(t *testing.T) {
		// Kubelets 1.32 and 1.33 prepare through v1beta1, and 1.34 to 1.36
		// watch health through v1alpha1. The kubelet's own wrappers convert
		// both to v1, as a 1.37 kubelet does for a plugin that offers only those.
		conn, err := grpc.NewClient("unix:"+endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		callCtx, cancel := context.WithTimeout(kubelet.ctx, 20*time.Second)
		defer cancel()
		beta := drapbv1beta1.V1Beta1ClientWrapper{DRAPluginClient: drapbv1beta1.NewDRAPluginClient(conn)}
		resp, err := beta.NodePrepareResources(callCtx, &drapbv1.NodePrepareResourcesRequest{Claims: []*drapbv1.Claim{
			{Namespace: namespace, Name: claim.Name, Uid: string(claim.UID)},
		}})
		if err != nil {
			t.Fatalf("v1beta1 NodePrepareResources: %v", err)
		}
		if r, ok := resp.Claims[string(claim.UID)]; !ok || r.GetError() != "" {
			t.Errorf("v1beta1 prepare of the real claim: %v", resp.Claims)
		}
		unprepared, err := beta.NodeUnprepareResources(callCtx, &drapbv1.NodeUnprepareResourcesRequest{Claims: []*drapbv1.Claim{
			{Namespace: namespace, Name: claim.Name, Uid: string(claim.UID)},
		}})
		if err != nil {
			t.Fatalf("v1beta1 NodeUnprepareResources: %v", err)
		}
		if r, ok := unprepared.Claims[string(claim.UID)]; !ok || r.GetError() != "" {
			t.Errorf("v1beta1 unprepare of the real claim: %v", unprepared.Claims)
		}
		alpha := drahealthv1.V1Alpha1ClientWrapper{Client: drahealthv1alpha1.NewDRAResourceHealthClient(conn)}
		stream, err := alpha.NodeWatchResources(callCtx, &drahealthv1.NodeWatchResourcesRequest{})
		if err != nil {
			t.Fatalf("v1alpha1 NodeWatchResources: %v", err)
		}
		first, err := stream.Recv()
		if err != nil {
			t.Fatalf("the v1alpha1 health stream's first message: %v", err)
		}
		checkInteropHealth(t, first.GetDevices())
	})

	t.Run("TheKubeletUnpreparesTheClaim", func(t *testing.T) {
		if err := kubelet.manager.UnprepareResources(kubelet.ctx, pod); err != nil {
			t.Fatalf("the kubelet's UnprepareResources: %v", err)
		}
		if kubelet.manager.PodMightNeedToUnprepareResources(pod.UID) {
			t.Errorf("after UnprepareResources the kubelet still holds the pod's claim")
		}
	})

	t.Run("AStoppedAgentIsDeregisteredAndLeavesItsSlice", func(t *testing.T) {
		// It exits 0 within agentStopPeriod and leaves no query child.
		agentProc.stop(t)
		// The plugin watcher sees the registration socket go and the kubelet
		// forgets the plugin, well before its 30 s wipe of the slices.
		calls := kubelet.handler.waitForCall(t, "DeRegisterPlugin", 20*time.Second)
		if last := calls[len(calls)-1]; last.name != interopDriver || last.endpoint != endpoint {
			t.Errorf("DeRegisterPlugin for %q at %q, want %q at %q", last.name, last.endpoint, interopDriver, endpoint)
		}
		if _, err := kubelet.plugins.GetPlugin(interopDriver); err == nil {
			t.Errorf("the kubelet still has a client for the stopped plugin")
		}
		for _, socket := range []string{endpoint, filepath.Join(registryDir, interopDriver+"-reg.sock")} {
			if _, err := os.Lstat(socket); err == nil {
				t.Errorf("%s is still there", socket)
			}
		}
		list, err := c.admin.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{
			FieldSelector: "spec.driver=" + interopDriver + ",spec.nodeName=" + interopNode,
		})
		if err != nil || len(list.Items) != 1 {
			t.Errorf("the agent's slice after it stopped: %d slices (%v), want it kept", len(list.Items), err)
		}
	})
}

// checkInteropHealth checks one health report: every GPU of the fake machine, in the
// node's pool, healthy unless its driver failed, and then with the failure as
// the message.
func checkInteropHealth(t *testing.T, devices []*drahealthv1.DeviceHealth) {
	t.Helper()
	byName := map[string]*drahealthv1.DeviceHealth{}
	for _, d := range devices {
		byName[d.GetDevice().GetDeviceName()] = d
		if pool := d.GetDevice().GetPoolName(); pool != interopNode {
			t.Errorf("device %s is in pool %q, want %q", d.GetDevice().GetDeviceName(), pool, interopNode)
		}
		if age := time.Since(time.Unix(d.GetLastUpdatedTime(), 0)); age < -time.Minute || age > time.Minute {
			t.Errorf("device %s was last updated %v ago", d.GetDevice().GetDeviceName(), age.Round(time.Second))
		}
	}
	if len(byName) != len(interopGPUs) {
		t.Errorf("the report names %d devices, want %d: %v", len(byName), len(interopGPUs), devices)
	}
	for _, g := range interopGPUs {
		d, ok := byName[g.device]
		switch {
		case !ok:
			t.Errorf("the report lacks %s", g.device)
		case g.healthy && d.GetHealth() != drahealthv1.HealthStatus_HEALTHY:
			t.Errorf("%s is %v (%q), want HEALTHY", g.device, d.GetHealth(), d.GetMessage())
		case !g.healthy && (d.GetHealth() != drahealthv1.HealthStatus_UNHEALTHY || d.GetMessage() == ""):
			t.Errorf("%s, whose driver fails to initialise, is %v with message %q; want UNHEALTHY with the failure",
				g.device, d.GetHealth(), d.GetMessage())
		}
	}
}

// allocateInteropClaim creates claim hevc10, asking for a GPU that
// decodes 10-bit HEVC, and pod transcoder using it, and waits until the
// scheduler has allocated the claim, reserved it for the pod and bound the
// pod to the node. It returns both as the API server has them.
func allocateInteropClaim(t *testing.T, c *cluster) (*resourcev1.ResourceClaim, *corev1.Pod) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.admin.ResourceV1().ResourceClaims(namespace).Create(ctx, hevc10ClaimObject(interopClaim), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := c.admin.CoreV1().Pods(namespace).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: interopPod},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: interopContainer, Image: "registry.k8s.io/pause:3.10", // never pulled: no kubelet runs it
				Resources: corev1.ResourceRequirements{Claims: []corev1.ResourceClaim{{Name: "gpu"}}},
			}},
			ResourceClaims: []corev1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To(interopClaim)}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var claim *resourcev1.ResourceClaim
	var pod *corev1.Pod
	waitFor(t, 60*time.Second, "the pod bound and its claim allocated", func() (bool, error) {
		var err error
		if pod, err = c.admin.CoreV1().Pods(namespace).Get(ctx, interopPod, metav1.GetOptions{}); err != nil {
			return false, err
		}
		if claim, err = c.admin.ResourceV1().ResourceClaims(namespace).Get(ctx, interopClaim, metav1.GetOptions{}); err != nil {
			return false, err
		}
		return pod.Spec.NodeName == interopNode && claim.Status.Allocation != nil && len(claim.Status.ReservedFor) == 1, nil
	})
	results := claim.Status.Allocation.Devices.Results
	if len(results) != 1 || results[0].Driver != interopDriver || results[0].Pool != interopNode || results[0].Device != interopGPUs[0].device {
		t.Fatalf("the claim was allocated %+v, want %s/%s/%s", results, interopDriver, interopNode, interopGPUs[0].device)
	}
	if r := claim.Status.ReservedFor[0]; r.Name != interopPod || r.UID != pod.UID {
		t.Fatalf("the claim is reserved for %s (%s), want the pod %s (%s)", r.Name, r.UID, interopPod, pod.UID)
	}
	return claim, pod
}

func hevc10ClaimObject(name string) *resourcev1.ResourceClaim {
	return &resourcev1.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{{
			Name: "decoder",
			Exactly: &resourcev1.ExactDeviceRequest{
				DeviceClassName: "media-capabilities",
				Selectors: []resourcev1.DeviceSelector{{CEL: &resourcev1.CELDeviceSelector{
					Expression: `device.attributes["` + interopDriver + `"].decodeHEVCMain10`,
				}}},
			},
		}}}},
	}
}

// recreateInteropClaim creates a claim, deletes it and creates it again under the
// same name, returning the first UID and the one the claim has now.
func recreateInteropClaim(t *testing.T, c *cluster, name string) (stale, current types.UID) {
	t.Helper()
	stale = deletedInteropClaimUID(t, c, name)
	made, err := c.admin.ResourceV1().ResourceClaims(namespace).Create(context.Background(), hevc10ClaimObject(name), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return stale, made.UID
}

// deletedInteropClaimUID creates a claim, deletes it, waits until it is gone and
// returns the UID it had.
func deletedInteropClaimUID(t *testing.T, c *cluster, name string) types.UID {
	t.Helper()
	ctx := context.Background()
	claims := c.admin.ResourceV1().ResourceClaims(namespace)
	made, err := claims.Create(ctx, hevc10ClaimObject(name), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := claims.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "claim "+name+" deleted", func() (bool, error) {
		_, err := claims.Get(ctx, name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), err
	})
	return made.UID
}
