package cluster

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// An apiserver whose DRAConsumableCapacity gate is off drops every device's
// allowMultipleAllocations without an error. The agent must say which field the
// server dropped, and then take the stored form as up to date: comparing the
// stored slice with what it would send, it would otherwise write the slice again
// at every event of its own watch, each write waking the scheduler.
func TestTheAgentNamesAFieldTheServerDroppedAndDoesNotWriteItAgainAndAgain(t *testing.T) {
	t.Parallel() // each test has a control plane of its own
	agentBinary(t)
	c := startCluster(t, "EXTRA_FEATURE_GATES=DRAConsumableCapacity=false")
	applyDeploy(t, c)
	n := setUpNode(t, c, "gate-node", vaMachine(t, vaDumps...), false)
	a := n.startAgent(t, "", "--render-nodes", "sysfs")

	a.waitForLog(t, 0, `^slice: created gate-node-media\.liken\.sh at generation 1 with 2 devices`, 60*time.Second)
	a.waitForLog(t, 0, `^slice: warning: what the server stored of gate-node-media\.liken\.sh differs from `+
		`what was sent at spec\.devices\[0\]\.allowMultipleAllocations`, 10*time.Second)

	slices := c.admin.ResourceV1().ResourceSlices()
	stored, err := slices.Get(context.Background(), n.sliceName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stored.Spec.Devices[0].AllowMultipleAllocations != nil {
		t.Fatalf("the apiserver kept allowMultipleAllocations with its gate off: the test proves nothing")
	}

	// Its own watch echoes the write; a label from someone else is one more event.
	mark := a.mark()
	kubectl(t, c, "label", "resourceslice", n.sliceName(), "seen-by=test")
	time.Sleep(5 * time.Second)
	if writes := a.linesSince(mark, `^slice: (created|updated|deleted)`); len(writes) > 0 {
		t.Errorf("the agent wrote the slice again although nothing it publishes changed: %q", writes)
	}
	after, err := slices.Get(context.Background(), n.sliceName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.Spec.Pool.Generation != stored.Spec.Pool.Generation {
		t.Errorf("the pool's generation moved from %d to %d", stored.Spec.Pool.Generation, after.Spec.Pool.Generation)
	}

	// A real change is still written: the slice deleted by hand comes back.
	mark = a.mark()
	if err := slices.Delete(context.Background(), n.sliceName(), metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	a.waitForLog(t, mark, `^slice: created gate-node-media\.liken\.sh`, 30*time.Second)
	a.stop(t)
}
