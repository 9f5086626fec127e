package cluster

// The kubelet's half of the interop test: the kubelet's own plugin manager
// (plugin watcher, reconciler, operation executor) and its DRA manager, wired
// as pkg/kubelet/kubelet.go and pkg/kubelet/cm/container_manager_linux.go wire
// them, with a kubelet's own credentials. Nothing of the kubelet is re-written
// here: the test only records what the real code does.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
	pluginregistration "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
	"k8s.io/kubernetes/pkg/kubelet/cm/dra"
	draplugin "k8s.io/kubernetes/pkg/kubelet/cm/dra/plugin"
	"k8s.io/kubernetes/pkg/kubelet/config"
	"k8s.io/kubernetes/pkg/kubelet/pluginmanager"
	"k8s.io/kubernetes/pkg/kubelet/pluginmanager/cache"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// interopKubelet is the part of a kubelet that talks to DRA plugins.
type interopKubelet struct {
	// manager is the kubelet's DRA manager: PrepareResources and
	// UnprepareResources for a pod, and the health of its devices.
	manager *dra.Manager
	// plugins is the manager's registry of plugins, the handler that the
	// plugin manager calls; GetPlugin returns the kubelet's gRPC client.
	plugins *draplugin.DRAPluginManager
	// handler records the plugin manager's calls before passing them on.
	handler *recordingPluginHandler
	// client is the kubelet's own API client (system:node:<node>).
	client kubernetes.Interface
	// ctx carries the kubelet's logger; it ends when the test does.
	ctx context.Context
}

// pluginHandlerCall is one call of the plugin manager into the DRA handler.
type pluginHandlerCall struct {
	method   string // ValidatePlugin, RegisterPlugin or DeRegisterPlugin
	name     string
	endpoint string
	versions []string
	err      error
}

// recordingPluginHandler passes each call of the plugin manager on to the kubelet's
// DRA handler unchanged and records it with its answer, so that the test sees
// exactly what the real plugin watcher and reconciler did.
type recordingPluginHandler struct {
	next cache.PluginHandler

	mu      sync.Mutex
	calls   []pluginHandlerCall
	changed chan struct{} // closed and replaced on every call
}

var _ cache.PluginHandler = &recordingPluginHandler{}

func newRecordingPluginHandler(next cache.PluginHandler) *recordingPluginHandler {
	return &recordingPluginHandler{next: next, changed: make(chan struct{})}
}

func (h *recordingPluginHandler) record(call pluginHandlerCall) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, call)
	close(h.changed)
	h.changed = make(chan struct{})
}

func (h *recordingPluginHandler) ValidatePlugin(ctx context.Context, name, endpoint string, versions []string) error {
	err := h.next.ValidatePlugin(ctx, name, endpoint, versions)
	h.record(pluginHandlerCall{"ValidatePlugin", name, endpoint, slices.Clone(versions), err})
	return err
}

func (h *recordingPluginHandler) RegisterPlugin(ctx context.Context, name, endpoint string, versions []string, timeout *time.Duration) error {
	err := h.next.RegisterPlugin(ctx, name, endpoint, versions, timeout)
	h.record(pluginHandlerCall{"RegisterPlugin", name, endpoint, slices.Clone(versions), err})
	return err
}

func (h *recordingPluginHandler) DeRegisterPlugin(ctx context.Context, name, endpoint string) {
	h.next.DeRegisterPlugin(ctx, name, endpoint)
	h.record(pluginHandlerCall{method: "DeRegisterPlugin", name: name, endpoint: endpoint})
}

// waitForCall returns the calls so far once one of them is `method`, or fails
// the test after timeout.
func (h *recordingPluginHandler) waitForCall(t *testing.T, method string, timeout time.Duration) []pluginHandlerCall {
	t.Helper()
	deadline := time.After(timeout)
	for {
		h.mu.Lock()
		calls, changed := slices.Clone(h.calls), h.changed
		h.mu.Unlock()
		if slices.ContainsFunc(calls, func(c pluginHandlerCall) bool { return c.method == method }) {
			return calls
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("the kubelet's plugin manager did not call %s within %v; its calls so far: %+v", method, timeout, calls)
		}
	}
}

// startInteropKubelet starts the kubelet's DRA manager and plugin manager watching
// registryDir, as a kubelet on node `node` would, and stops both when the
// test ends. It returns once the DRA manager's start-up wipe of the node's
// ResourceSlices is done: on a real node the kubelet is up before the
// driver's pod, and a wipe that came after the agent's first write would
// delete the slice the test is about to check.
func startInteropKubelet(t *testing.T, c *cluster, node, registryDir string) *interopKubelet {
	t.Helper()
	// The kubelet's code logs through the context; its lines go to the test
	// log. Verbosity 4 shows each registration step and the health stream.
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.Verbosity(4)))
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))

	wiped := make(chan struct{})
	var once sync.Once
	client := nodeClient(t, c, node, func(req *http.Request, resp *http.Response) {
		// The manager's wipe is one DELETE of the node's slice collection,
		// retried until it succeeds.
		if req.Method == http.MethodDelete && req.URL.Path == "/apis/resource.k8s.io/v1/resourceslices" &&
			resp.StatusCode == http.StatusOK {
			once.Do(func() { close(wiped) })
		}
	})

	stateDir := t.TempDir()
	manager, err := dra.NewManager(logger, client, stateDir)
	if err != nil {
		t.Fatalf("dra.NewManager: %v", err)
	}
	getNode := func(ctx context.Context) (*corev1.Node, error) {
		return client.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
	}
	// Sources that are never ready keep the manager's reconcile loop from
	// unpreparing claims of pods it was never told about: the test tells it of
	// none, and prepares and unprepares itself.
	neverReady := config.NewSourcesReady(func(sets.Set[string]) bool { return false })
	if err := manager.Start(ctx, func() []*corev1.Pod { return nil }, getNode, neverReady); err != nil {
		t.Fatalf("DRA manager Start: %v", err)
	}
	plugins, ok := manager.GetWatcherHandler().(*draplugin.DRAPluginManager)
	if !ok {
		t.Fatalf("the DRA manager's watcher handler is a %T, not a *plugin.DRAPluginManager", manager.GetWatcherHandler())
	}
	handler := newRecordingPluginHandler(plugins)

	pm := pluginmanager.NewPluginManager(registryDir, &record.FakeRecorder{})
	pm.AddHandler(pluginregistration.DRAPlugin, handler)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		pm.Run(ctx, neverReady, stop)
	}()
	t.Cleanup(func() {
		close(stop)
		<-done
		cancel()
		manager.Stop()
	})

	select {
	case <-wiped:
	case <-time.After(30 * time.Second):
		t.Fatalf("the DRA manager did not delete node %s's ResourceSlices at start-up within 30 s", node)
	}
	return &interopKubelet{manager: manager, plugins: plugins, handler: handler, client: client, ctx: ctx}
}

// nodeClient is an API client with a kubelet's identity on `node`: a client
// certificate for system:node:<node> in group system:nodes, signed by the
// test cluster's CA as the kubelet's TLS bootstrap would have it signed. The
// apiserver's Node authorizer then lets it read only what a kubelet may: a
// ResourceClaim only when a pod bound to the node uses it. seen is called
// with every response.
func nodeClient(t *testing.T, c *cluster, node string, seen func(*http.Request, *http.Response)) kubernetes.Interface {
	t.Helper()
	certPEM, keyPEM := signNodeCertificate(t, filepath.Join(c.dir, "pki"), "system:node:"+node, "system:nodes")
	cfg := &rest.Config{
		Host: c.env["APISERVER_URL"],
		TLSClientConfig: rest.TLSClientConfig{
			CAFile:   c.env["CA_FILE"],
			CertData: certPEM,
			KeyData:  keyPEM,
		},
		UserAgent: "kubelet-interop-test",
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper {
			return observedTransport(func(req *http.Request) (*http.Response, error) {
				resp, err := rt.RoundTrip(req)
				if err == nil {
					seen(req, resp)
				}
				return resp, err
			})
		},
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

type observedTransport func(*http.Request) (*http.Response, error)

func (f observedTransport) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// signNodeCertificate makes a P-256 key and a client certificate for user
// cn in group org, signed by pkiDir's ca.crt and ca.key (start-control-plane's
// CA, which the apiserver trusts for client certificates).
func signNodeCertificate(t *testing.T, pkiDir, cn, org string) (certPEM, keyPEM []byte) {
	t.Helper()
	caCert, caKey := readClusterCA(t, pkiDir)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn, Organization: []string{org}},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

func readClusterCA(t *testing.T, pkiDir string) (*x509.Certificate, any) {
	t.Helper()
	certBlock := readPEMBlock(t, filepath.Join(pkiDir, "ca.crt"))
	cert, err := x509.ParseCertificate(certBlock.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	keyBlock := readPEMBlock(t, filepath.Join(pkiDir, "ca.key"))
	// openssl writes PKCS #8 ("PRIVATE KEY"); older versions wrote SEC 1.
	if key, err := x509.ParsePKCS8PrivateKey(keyBlock.Bytes); err == nil {
		return cert, key
	}
	key, err := x509.ParseECPrivateKey(keyBlock.Bytes)
	if err != nil {
		t.Fatalf("%s: neither PKCS #8 nor SEC 1: %v", filepath.Join(pkiDir, "ca.key"), err)
	}
	return cert, key
}

func readPEMBlock(t *testing.T, path string) *pem.Block {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatal(fmt.Errorf("%s holds no PEM block", path))
	}
	return block
}
