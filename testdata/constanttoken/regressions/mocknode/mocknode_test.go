package mocknode

import (
	"testing"
	"time"
)

func TestNew(t *testing.T) {
	d := New(nil, &Member{ClusterID: "c1", NodeID: "node_mock_1"}, time.Second)
	if d.local.NodeID != "node_mock_1" {
		t.Fatal("node id lost")
	}
}
