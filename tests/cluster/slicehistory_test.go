package cluster

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"
)

// sliceKeyPrefix is where kube-apiserver keeps ResourceSlices in etcd.
const sliceKeyPrefix = "/registry/resourceslices/"

// sliceVersion is one version of one ResourceSlice as etcd stored it.
type sliceVersion struct {
	name     string
	revision int64 // etcd's revision of the write: the resourceVersion clients saw
	at       time.Time
	slice    *resourcev1.ResourceSlice // nil: the write deleted the slice
}

// sliceHistory records every version of every ResourceSlice that etcd stores
// while a test runs.
//
// It watches etcd, not the apiserver: a watch through the apiserver breaks
// when the apiserver restarts, and the restarted apiserver's watch cache
// answers a watch from an older resourceVersion with 410 Gone, so versions
// written around a restart could pass unseen, and those are the versions a
// fault test most needs to see. etcd keeps every revision until the apiserver
// compacts (every 5 minutes, and then only up to the revision of the previous
// round), and etcd's client resumes its watch after an etcd restart from the
// revision after the last one it delivered, so nothing in between is lost.
type sliceHistory struct {
	client *clientv3.Client
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	versions []sliceVersion
	caughtUp int64 // the watch has delivered every event up to this revision
	err      error
}

// recordSlices starts recording from etcd's current revision on.
func recordSlices(t *testing.T, c *cluster) *sliceHistory {
	t.Helper()
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{c.env["ETCD_URL"]},
		DialTimeout: 5 * time.Second,
		// Its reconnection warnings while a test has etcd stopped are noise.
		Logger: zap.NewNop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	now, err := client.Get(ctx, "/registry/health-of-the-test", clientv3.WithCountOnly())
	if err != nil {
		cancel()
		client.Close()
		t.Fatalf("reading etcd's revision: %v", err)
	}
	h := &sliceHistory{client: client, cancel: cancel, done: make(chan struct{}), caughtUp: now.Header.Revision}
	codec := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	watch := client.Watch(ctx, sliceKeyPrefix, clientv3.WithPrefix(),
		clientv3.WithRev(now.Header.Revision+1), clientv3.WithProgressNotify())
	go func() {
		defer close(h.done)
		for resp := range watch {
			h.mu.Lock()
			if err := resp.Err(); err != nil && h.err == nil && ctx.Err() == nil {
				// A compaction under the watch, for one: say so rather than
				// report a history with a hole in it.
				h.err = err
			}
			for _, ev := range resp.Events {
				v := sliceVersion{
					name:     strings.TrimPrefix(string(ev.Kv.Key), sliceKeyPrefix),
					revision: ev.Kv.ModRevision,
					at:       time.Now(),
				}
				if ev.Type == clientv3.EventTypePut {
					obj, gvk, err := codec.Decode(ev.Kv.Value, nil, nil)
					slice, ok := obj.(*resourcev1.ResourceSlice)
					if err != nil || !ok {
						if h.err == nil {
							h.err = fmt.Errorf("version %d of %s: not a resource.k8s.io/v1 ResourceSlice (%v, %v)", v.revision, v.name, gvk, err)
						}
						continue
					}
					v.slice = slice
				}
				h.versions = append(h.versions, v)
			}
			if resp.Header.Revision > h.caughtUp {
				h.caughtUp = resp.Header.Revision
			}
			h.mu.Unlock()
		}
	}()
	t.Cleanup(h.close)
	return h
}

func (h *sliceHistory) close() {
	h.cancel()
	<-h.done
	h.client.Close()
}

// sync waits until the watch has delivered every write etcd holds now, and
// returns the history so far.
func (h *sliceHistory) sync(t *testing.T) []sliceVersion {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	now, err := h.client.Get(ctx, "/registry/health-of-the-test", clientv3.WithCountOnly())
	if err != nil {
		t.Fatalf("reading etcd's revision: %v", err)
	}
	for {
		h.mu.Lock()
		caughtUp, err := h.caughtUp, h.err
		versions := append([]sliceVersion(nil), h.versions...)
		h.mu.Unlock()
		if err != nil {
			t.Fatalf("the record of ResourceSlice versions is incomplete: %v", err)
		}
		if caughtUp >= now.Header.Revision {
			return versions
		}
		// A progress notification carries the revision that the watch has
		// caught up with, even when no slice changed since.
		_ = h.client.RequestProgress(ctx)
		select {
		case <-ctx.Done():
			t.Fatalf("the etcd watch did not catch up with revision %d (it is at %d)", now.Header.Revision, caughtUp)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// of returns the versions of one slice.
func versionsOf(versions []sliceVersion, name string) []sliceVersion {
	var out []sliceVersion
	for _, v := range versions {
		if v.name == name {
			out = append(out, v)
		}
	}
	return out
}
