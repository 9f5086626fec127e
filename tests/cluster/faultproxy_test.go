package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// faultProxy stands between the agent and the real apiserver and answers chosen
// requests itself with an error, as an overloaded or failing apiserver would. It
// terminates TLS with the apiserver's own serving certificate (its SANs hold
// 127.0.0.1), so the agent's kubeconfig keeps the cluster's CA and only its
// server address moves; everything else, watches included, goes through to the
// apiserver unchanged, with the agent's own token.
type faultProxy struct {
	addr     string // host:port the proxy listens (or will listen) on
	target   *url.URL
	cert     tls.Certificate
	upstream *tls.Config

	mu         sync.Mutex
	server     *http.Server
	armed      int // how many more slice writes to fail
	status     int // with this status
	retryAfter int // and, for 429, this Retry-After in seconds
	faults     []time.Time
	writes     []time.Time // every slice write since failWrites, refused or not
	requests   int
}

// newFaultProxy prepares a proxy to the apiserver of cluster c on a free loopback
// port. It does not listen until start: a test of an agent whose server is down
// at its start points the agent at the address first.
func newFaultProxy(t *testing.T, c *cluster) *faultProxy {
	t.Helper()
	cert, err := tls.LoadX509KeyPair(filepath.Join(c.dir, "pki", "apiserver.crt"), filepath.Join(c.dir, "pki", "apiserver.key"))
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile(filepath.Join(c.dir, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("no certificate in ca.crt")
	}
	target, err := url.Parse(c.env["APISERVER_URL"])
	if err != nil {
		t.Fatal(err)
	}
	// A port the kernel hands out now and that nobody holds; the proxy takes
	// it again in start. Between the two nothing else here binds loopback
	// ports at random, so it stays free.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	p := &faultProxy{addr: addr, target: target, cert: cert, upstream: &tls.Config{RootCAs: roots}}
	t.Cleanup(p.stop)
	return p
}

func (p *faultProxy) url() string { return "https://" + p.addr }

// start listens and serves until stop.
func (p *faultProxy) start(t *testing.T) {
	t.Helper()
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatalf("the fault proxy cannot listen on %s: %v", p.addr, err)
	}
	rp := httputil.NewSingleHostReverseProxy(p.target)
	// -1 flushes every write at once: a watch's events reach the agent as the
	// apiserver sends them, not when a buffer fills.
	rp.FlushInterval = -1
	rp.Transport = &http.Transport{
		TLSClientConfig:   p.upstream,
		ForceAttemptHTTP2: true,
	}
	rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		// The apiserver itself is down (a restart): say so as a gateway would.
		http.Error(w, "fault proxy: the apiserver did not answer: "+err.Error(), http.StatusBadGateway)
	}
	server := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if status, retryAfter, ok := p.fault(r); ok {
				writeStatus(w, status, retryAfter)
				return
			}
			rp.ServeHTTP(w, r)
		}),
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{p.cert}},
	}
	p.mu.Lock()
	p.server = server
	p.mu.Unlock()
	go func() {
		if err := server.ServeTLS(l, "", ""); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "fault proxy: %v\n", err)
		}
	}()
}

// stop closes the listener and every open connection, watches included.
func (p *faultProxy) stop() {
	p.mu.Lock()
	server := p.server
	p.server = nil
	p.mu.Unlock()
	if server != nil {
		server.Close()
	}
}

// failWrites arms the proxy: the next n writes (POST or PUT) to resourceslices
// are answered with status (with a 429, Retry-After: retryAfter), and never
// reach the apiserver.
func (p *faultProxy) failWrites(n, status, retryAfter int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed, p.status, p.retryAfter, p.faults, p.writes = n, status, retryAfter, nil, nil
}

// faultTimes says when each armed fault was answered, and how many are left.
func (p *faultProxy) faultTimes() (answered []time.Time, left int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Time(nil), p.faults...), p.armed
}

// writeTimes says when each slice write since failWrites came, refused or not.
func (p *faultProxy) writeTimes() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Time(nil), p.writes...)
}

// requestCount is how many requests the proxy has seen, faults included.
func (p *faultProxy) requestCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

func (p *faultProxy) fault(r *http.Request) (status, retryAfter int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	write := r.Method == http.MethodPost || r.Method == http.MethodPut
	if !write || !strings.Contains(r.URL.Path, "/resourceslices") {
		return 0, 0, false
	}
	p.writes = append(p.writes, time.Now())
	if p.armed == 0 {
		return 0, 0, false
	}
	p.armed--
	p.faults = append(p.faults, time.Now())
	return p.status, p.retryAfter, true
}

// writeStatus answers as the apiserver does when it refuses a request: a
// metav1.Status body with the apiserver's own words (its max-in-flight filter's
// for 429, with Retry-After; its generic internal error for 500), which name
// no status code, so a log line that shows one took it from the response.
func writeStatus(w http.ResponseWriter, status, retryAfter int) {
	reason, message := "InternalError", "Internal error occurred: the test's fault proxy refused the write"
	if status == http.StatusTooManyRequests {
		reason, message = "TooManyRequests", "Too many requests, please try again later."
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"code":%d}`,
		message, reason, status)
}
