package cluster

// The agent process of the interop test. agentproc_test.go's helpers give it
// its binary, fake machine and identity; it is started here because the
// kubelet's plugin watcher must be watching the registry directory before the
// agent creates its socket there, so the test chooses the directories.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// pluginAgent is one running `media-capabilities agent` and its log.
type pluginAgent struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited
	err  error         // its exit, once done is closed

	mu    sync.Mutex
	lines []string
}

// startPluginAgent starts `binary agent args...` with env added to the test's
// environment. When the test ends, an agent still running is killed with its
// process group (query children included), and its log goes to the test log.
func startPluginAgent(t *testing.T, binary string, args, env []string) *pluginAgent {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"agent"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	a := &pluginAgent{cmd: cmd, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the agent: %v", err)
	}
	t.Logf("agent started (pid %d): %s", cmd.Process.Pid, strings.Join(cmd.Args, " "))
	go a.read(out)
	t.Cleanup(func() {
		select {
		case <-a.done:
		default:
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-a.done
		}
		t.Logf("the agent's log:\n%s", strings.Join(a.log(), "\n"))
	})
	return a
}

func (a *pluginAgent) read(out io.Reader) {
	s := bufio.NewScanner(out)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	for s.Scan() {
		a.mu.Lock()
		a.lines = append(a.lines, s.Text())
		a.mu.Unlock()
	}
	a.err = a.cmd.Wait()
	close(a.done)
}

func (a *pluginAgent) log() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.lines...)
}

// waitForLog waits for a log line that contains want.
func (a *pluginAgent) waitForLog(t *testing.T, want string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		for _, line := range a.log() {
			if strings.Contains(line, want) {
				return line
			}
		}
		select {
		case <-a.done:
			t.Fatalf("the agent exited (%v) without logging %q", a.err, want)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent did not log %q within %v", want, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits up to grace for the agent to exit, then kills
// its process group. It returns how the agent exited.
func (a *pluginAgent) stop(grace time.Duration) error {
	select {
	case <-a.done:
		return a.err
	default:
	}
	_ = a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
		return a.err
	case <-time.After(grace):
		_ = syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
		<-a.done
		return fmt.Errorf("no exit within %v of SIGTERM; killed (%v)", grace, a.err)
	}
}
