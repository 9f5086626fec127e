package cluster

// What the agent tests need around the agent itself: the built binary, fake
// machines for it to find GPUs on, an identity as its DaemonSet pod would
// have, and the running process with its log.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	registerapi "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
	"k8s.io/utils/ptr"
)

const (
	agentDriver     = "media.liken.sh"
	agentNamespace  = "liken-system"
	agentAccount    = "media-capabilities"
	likenDriver     = "liken.sh"
	repoRelative    = "../.."
	agentStopPeriod = 15 * time.Second
)

// buildDir is the C++ build tree: MEDIA_CAP_BUILD, or build/ at the top of the
// repository, as tests/fakeva/probe-dump takes it.
func buildDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MEDIA_CAP_BUILD")
	if dir == "" {
		dir = filepath.Join(repoRelative, "build")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func repoPath(t *testing.T, parts ...string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(append([]string{repoRelative}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// agentBinary is build/media-capabilities, which must exist and have the agent
// subcommand: a missing binary fails the test rather than skipping it, since a
// skipped test would let `make test` pass with the agent untested.
func agentBinary(t *testing.T) string {
	t.Helper()
	binary := filepath.Join(buildDir(t), "media-capabilities")
	if _, err := os.Stat(binary); err != nil {
		t.Fatalf("%s is missing (build it first: make build, or set MEDIA_CAP_BUILD): %v", binary, err)
	}
	if out, err := exec.Command(binary, "agent", "--help").CombinedOutput(); err != nil {
		t.Fatalf("%s has no agent subcommand: %v\n%s", binary, err, out)
	}
	return binary
}

// machine is a fake machine for the agent: the sysfs and /dev roots it is
// given, and the environment that makes the real libraries load the fakes.
type machine struct {
	dir  string
	env  []string
	args []string // options that both the probe and the agent take, such as --query-deadline
}

func (m machine) sys() string { return filepath.Join(m.dir, "sys") }
func (m machine) dev() string { return filepath.Join(m.dir, "dev") }

// vaMachine lays out one fake VA-API GPU per dump with tests/fakeva/fake-machine:
// GPU i is renderD<128+i> at PCI 0000:<i+1>:00.0. Debian's real libva loads the
// fake driver, which states what the dump in each render node says; the shim
// answers libdrm's only question that the kernel would have (the environment is
// probe_end_to_end_test.cpp's).
func vaMachine(t *testing.T, dumps ...string) machine {
	t.Helper()
	build := buildDir(t)
	driverDir := filepath.Join(build, "tests", "fakeva")
	shim := filepath.Join(driverDir, "libfakeva_drm_shim.so")
	for _, f := range []string{filepath.Join(driverDir, "fakeva_drv_video.so"), shim} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s is missing: build the fake VA driver first (make build): %v", f, err)
		}
	}
	dir := t.TempDir()
	args := []string{dir}
	for _, d := range dumps {
		args = append(args, repoPath(t, "tests", "fakeva", "dumps", d))
	}
	if out, err := exec.Command(repoPath(t, "tests", "fakeva", "fake-machine"), args...).CombinedOutput(); err != nil {
		t.Fatalf("fake-machine: %v\n%s", err, out)
	}
	preload := shim
	// A binary built with AddressSanitizer needs its runtime first among the
	// preloaded libraries (probe-dump does the same).
	if out, err := exec.Command("ldd", filepath.Join(build, "media-capabilities")).Output(); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) >= 3 && strings.HasPrefix(f[0], "libasan") {
				preload = f[2] + ":" + shim
			}
		}
	}
	return machine{dir: dir, env: []string{
		"LD_PRELOAD=" + preload,
		"LIBVA_DRIVERS_PATH=" + driverDir,
		"LIBVA_DRIVER_NAME=fakeva",
		"ASAN_OPTIONS=handle_segv=0",
	}}
}

// nvidiaMachine lays out the NVIDIA GPU of a tests/fakenv record with
// fakenv_stage: its sysfs, and fakes of NVIDIA's libraries that the real
// nv-codec-headers loader finds on LD_LIBRARY_PATH and that replay the record.
func nvidiaMachine(t *testing.T, record string) machine {
	t.Helper()
	stage := filepath.Join(buildDir(t), "tests", "fakenv", "fakenv_stage")
	if _, err := os.Stat(stage); err != nil {
		t.Fatalf("%s is missing: build the NVIDIA fakes first (make build): %v", stage, err)
	}
	recordPath := repoPath(t, "tests", "fakenv", "records", record)
	dir := t.TempDir()
	if out, err := exec.Command(stage, recordPath, dir).CombinedOutput(); err != nil {
		t.Fatalf("fakenv_stage: %v\n%s", err, out)
	}
	return machine{dir: dir, env: []string{
		"LD_LIBRARY_PATH=" + filepath.Join(dir, "lib"),
		"FAKENV_RECORD=" + recordPath,
	}}
}

// probeDevices is what `probe --output json` says about machine m: the devices
// exactly as the agent must publish them (both run the same builder).
func probeDevices(t *testing.T, m machine) []resourcev1.Device {
	t.Helper()
	cmd := exec.Command(agentBinary(t), append([]string{"probe", "--sysfs-root", m.sys(), "--dev-root", m.dev(), "--output", "json"}, m.args...)...)
	cmd.Env = append(os.Environ(), m.env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, stderr.String())
	}
	var devices []resourcev1.Device
	if err := json.Unmarshal(out, &devices); err != nil {
		t.Fatalf("probe --output json: %v\n%s", err, out)
	}
	return devices
}

// identity is what the agent's DaemonSet pod would hold: a kubeconfig whose
// user is a token file with a service-account token bound to the agent's pod.
type identity struct {
	pod        *corev1.Pod
	tokenFile  string
	caFile     string
	client     kubernetes.Interface // the agent's identity, straight to the apiserver
	kubeconfig string               // the agent's kubeconfig, straight to the apiserver
}

// agentIdentity creates the agent's Pod on node (nothing runs it: there is no
// kubelet) and a token bound to it with the TokenRequest API, as the kubelet
// makes one for a pod's projected service-account volume. A token bound to a
// pod carries the pod's node, which is what deploy/admission-policy.yaml checks
// every slice write against; deploy/'s RBAC grants the rest.
func agentIdentity(t *testing.T, c *cluster, dir, node string) identity {
	t.Helper()
	ctx := context.Background()
	pod, err := c.admin.CoreV1().Pods(agentNamespace).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "media-capabilities-" + node, Namespace: agentNamespace},
		Spec: corev1.PodSpec{
			ServiceAccountName: agentAccount,
			NodeName:           node,
			Containers:         []corev1.Container{{Name: "agent", Image: "media-capabilities"}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return podIdentity(t, c, dir, pod)
}

// podIdentity is the identity of an existing pod of the agent's ServiceAccount:
// a token bound to it, as the kubelet mounts into it.
func podIdentity(t *testing.T, c *cluster, dir string, pod *corev1.Pod) identity {
	t.Helper()
	ctx := context.Background()
	token, err := c.admin.CoreV1().ServiceAccounts(agentNamespace).CreateToken(ctx, agentAccount, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{
			ExpirationSeconds: ptr.To[int64](3600),
			BoundObjectRef:    &authenticationv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: pod.Name, UID: pod.UID},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := identity{pod: pod, tokenFile: filepath.Join(dir, "token"), caFile: filepath.Join(c.dir, "ca.crt")}
	if err := os.WriteFile(id.tokenFile, []byte(token.Status.Token), 0o600); err != nil {
		t.Fatal(err)
	}
	id.kubeconfig = id.writeKubeconfig(t, filepath.Join(dir, "agent.kubeconfig"), c.env["APISERVER_URL"])
	id.client, err = kubernetes.NewForConfig(&rest.Config{
		Host:            c.env["APISERVER_URL"],
		BearerTokenFile: id.tokenFile,
		TLSClientConfig: rest.TLSClientConfig{CAFile: id.caFile},
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// writeKubeconfig writes a kubeconfig for server with the agent's token file.
func (id identity) writeKubeconfig(t *testing.T, path, server string) string {
	t.Helper()
	text := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: agent
  user:
    tokenFile: %s
contexts:
- name: agent@test
  context: {cluster: test, user: agent}
current-context: agent@test
`, server, id.caFile, id.tokenFile)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// applyDeploy applies the parts of deploy/ that an agent without a kubelet
// needs: its namespace and ServiceAccount, its RBAC and admission policy (so
// that every request the agent makes is judged by the real permissions), and
// the DeviceClasses. Not the DaemonSet: no kubelet would run it.
func applyDeploy(t *testing.T, c *cluster) {
	t.Helper()
	args := []string{"--kubeconfig", c.env["ADMIN_KUBECONFIG"], "apply", "--server-side"}
	for _, f := range []string{"namespace.yaml", "service-account.yaml", "rbac.yaml", "admission-policy.yaml", "device-classes.yaml"} {
		args = append(args, "-f", repoPath(t, "deploy", f))
	}
	if out, err := exec.Command(c.env["KUBECTL"], args...).CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply deploy/: %v\n%s", err, out)
	}
}

// waitForThePolicy waits until the admission policy refuses what it must: the
// apiserver loads a new policy asynchronously, and an agent started before
// that would have its first writes judged by RBAC alone.
func waitForThePolicy(t *testing.T, id identity, node string) {
	t.Helper()
	slice := &resourcev1.ResourceSlice{
		ObjectMeta: metav1.ObjectMeta{Name: node + "-policy-probe.example.com"},
		Spec: resourcev1.ResourceSliceSpec{
			Driver:   "policy-probe.example.com",
			NodeName: ptr.To(node),
			Pool:     resourcev1.ResourcePool{Name: node, Generation: 1, ResourceSliceCount: 1},
		},
	}
	waitFor(t, 30*time.Second, "the admission policy refusing another driver's slice", func() (bool, error) {
		_, err := id.client.ResourceV1().ResourceSlices().Create(context.Background(), slice,
			metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if apierrors.IsForbidden(err) && strings.Contains(err.Error(), "only ResourceSlices of driver media.liken.sh") {
			return true, nil
		}
		return false, fmt.Errorf("a dry-run create of another driver's slice answered %v", err)
	})
}

// agent is one running `media-capabilities agent` process and its log.
type agent struct {
	cmd         *exec.Cmd
	registryDir string
	done        chan struct{}
	err         error // the process's exit, once done is closed

	mu    sync.Mutex
	lines []string
	moved chan struct{} // closed and replaced whenever a line arrives
}

type agentOptions struct {
	kubeconfig string
	node       string
	machine    machine
	extraArgs  []string
	// The kubelet's directories, for a test whose kubelet watches them already;
	// empty means a short temporary directory of the agent's own.
	pluginsDir, registryDir string
}

// startAgent runs the agent with its plugin and registry directories in a
// short temporary directory of their own: a unix socket's path may not exceed
// 107 bytes, and the test's own temporary directory, named after the test, is
// longer than that already.
func startAgent(t *testing.T, o agentOptions) *agent {
	t.Helper()
	binary := agentBinary(t)
	if o.pluginsDir == "" || o.registryDir == "" {
		kubelet, err := os.MkdirTemp("", "mc-kubelet-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(kubelet) })
		o.pluginsDir, o.registryDir = filepath.Join(kubelet, "plugins"), filepath.Join(kubelet, "registry")
	}
	args := []string{"agent",
		"--kubeconfig", o.kubeconfig,
		"--node-name", o.node,
		"--sysfs-root", o.machine.sys(),
		"--dev-root", o.machine.dev(),
		"--plugins-dir", o.pluginsDir,
		"--registry-dir", o.registryDir,
		"--health-address", "127.0.0.1:0",
	}
	args = append(append(args, o.machine.args...), o.extraArgs...)
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), o.machine.env...)
	// Its own process group, so that a test's cleanup can take down the agent
	// and any query child it left, and nothing else.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	a := &agent{cmd: cmd, registryDir: o.registryDir, done: make(chan struct{}), moved: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Logf("agent started (pid %d): %s %s", cmd.Process.Pid, binary, strings.Join(args, " "))
	go a.read(out)
	t.Cleanup(func() {
		select {
		case <-a.done:
		default:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-a.done
		}
		// Its log is the first thing to read when a test fails; with -v it is
		// shown always.
		if t.Failed() || testing.Verbose() {
			t.Logf("the agent's log (pid %d):\n%s", cmd.Process.Pid, strings.Join(a.log(), "\n"))
		}
	})
	return a
}

func (a *agent) read(out io.Reader) {
	s := bufio.NewScanner(out)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	for s.Scan() {
		a.mu.Lock()
		a.lines = append(a.lines, s.Text())
		close(a.moved)
		a.moved = make(chan struct{})
		a.mu.Unlock()
	}
	a.err = a.cmd.Wait()
	close(a.done)
	a.mu.Lock()
	close(a.moved)
	a.moved = make(chan struct{})
	a.mu.Unlock()
}

func (a *agent) log() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.lines...)
}

// mark is the number of log lines so far, for a later waitForLog to look
// only at what comes after it.
func (a *agent) mark() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.lines)
}

// linesSince returns the lines from mark on that match pattern.
func (a *agent) linesSince(mark int, pattern string) []string {
	re := regexp.MustCompile(pattern)
	var found []string
	for _, line := range a.log()[mark:] {
		if re.MatchString(line) {
			found = append(found, line)
		}
	}
	return found
}

// waitForLog waits for a line from mark on that matches pattern, and returns it.
func (a *agent) waitForLog(t *testing.T, mark int, pattern string, timeout time.Duration) string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	deadline := time.After(timeout)
	for {
		a.mu.Lock()
		lines, moved := a.lines, a.moved
		a.mu.Unlock()
		for _, line := range lines[min(mark, len(lines)):] {
			if re.MatchString(line) {
				return line
			}
		}
		select {
		case <-a.done:
			t.Fatalf("the agent exited (%v) before logging a line that matches %q", a.err, pattern)
		case <-deadline:
			t.Fatalf("the agent logged no line that matches %q in %v", pattern, timeout)
		case <-moved:
		}
	}
}

// pause stops the process where it is (SIGSTOP) and resume lets it go on: what
// the agent has not read yet stays in its sockets meanwhile, so a test can hand
// it work that it will attempt only once a server is down.
func (a *agent) pause()  { a.cmd.Process.Signal(syscall.SIGSTOP) }
func (a *agent) resume() { a.cmd.Process.Signal(syscall.SIGCONT) }

// healthPort is the port of /livez and /readyz, from the log line that names
// the port the agent picked for --health-address 127.0.0.1:0.
var healthPort = regexp.MustCompile(`^agent: health probes on port ([0-9]+)`)

// readyz answers /readyz's status code and body.
func (a *agent) readyz(t *testing.T) (int, string) {
	t.Helper()
	line := a.waitForLog(t, 0, healthPort.String(), 30*time.Second)
	resp, err := http.Get("http://127.0.0.1:" + healthPort.FindStringSubmatch(line)[1] + "/readyz")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(body))
}

// metrics answers GET /metrics on the agent's health port, as Prometheus
// scrapes it (docs/dra/agent.md, "Health").
func (a *agent) metrics(t *testing.T) string {
	t.Helper()
	line := a.waitForLog(t, 0, healthPort.String(), 30*time.Second)
	resp, err := http.Get("http://127.0.0.1:" + healthPort.FindStringSubmatch(line)[1] + "/metrics")
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /metrics answered %d %q", resp.StatusCode, body)
	}
	return string(body)
}

// acceptRegistration answers the agent's kubelet-plugin registration as the
// kubelet's plugin watcher would once it has validated the plugin: GetInfo,
// then NotifyRegistrationStatus with registered true. No kubelet runs here,
// and /readyz waits for that answer (docs/dra/agent.md); with it, /readyz says
// whether the slices hold what the queries found. plugin_interop_test.go
// runs the kubelet's own code against the same socket.
func (a *agent) acceptRegistration(t *testing.T) {
	t.Helper()
	socket := filepath.Join(a.registryDir, agentDriver+"-reg.sock")
	waitFor(t, 30*time.Second, "the registration socket "+socket, func() (bool, error) {
		select {
		case <-a.done:
			t.Fatalf("the agent exited (%v) before its registration socket appeared; its log:\n%s", a.err, strings.Join(a.log(), "\n"))
		default:
		}
		_, err := os.Stat(socket)
		return err == nil, err
	})
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := registerapi.NewRegistrationClient(conn)
	info, err := client.GetInfo(ctx, &registerapi.InfoRequest{})
	if err != nil {
		t.Fatalf("GetInfo on %s: %v", socket, err)
	}
	if info.Type != "DRAPlugin" || info.Name != agentDriver {
		t.Fatalf("GetInfo answered type %q name %q, want DRAPlugin %s", info.Type, info.Name, agentDriver)
	}
	if _, err := client.NotifyRegistrationStatus(ctx, &registerapi.RegistrationStatus{PluginRegistered: true}); err != nil {
		t.Fatalf("NotifyRegistrationStatus: %v", err)
	}
}

// stop sends SIGTERM and expects the documented clean exit: status 0 within
// agentStopPeriod, and no process left in its group (query children included).
func (a *agent) stop(t *testing.T) {
	t.Helper()
	pid := a.cmd.Process.Pid
	begin := time.Now()
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(agentStopPeriod):
		syscall.Kill(-pid, syscall.SIGKILL)
		<-a.done
		t.Fatalf("the agent did not exit within %v of SIGTERM", agentStopPeriod)
	}
	t.Logf("the agent exited %v after SIGTERM", time.Since(begin).Round(time.Millisecond))
	if a.err != nil {
		t.Errorf("the agent's exit after SIGTERM: %v, want status 0", a.err)
	}
	// Anything of its process group still alive is a query child it left.
	if err := syscall.Kill(-pid, 0); err == nil {
		t.Errorf("processes of the agent's group %d outlive it", pid)
		syscall.Kill(-pid, syscall.SIGKILL)
	}
}
