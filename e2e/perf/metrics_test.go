package perf_test

import (
	"bufio"
	"context"
	"strconv"
	"strings"

	"github.com/condengine/condengine/e2e/internal/cluster"
)

// requestCounts reads apiserver_request_total from /metrics: the total, and
// the Binding requests by verb and subresource ("PATCH status", "LIST").
func requestCounts(ctx context.Context, c *cluster.Cluster) (total float64, bindings map[string]float64, err error) {
	body, err := c.Get(ctx, "/metrics")
	if err != nil {
		return 0, nil, err
	}
	bindings = map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "apiserver_request_total{") {
			continue
		}
		sp := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[sp+1:], 64)
		if err != nil {
			return 0, nil, err
		}
		total += v
		labels := line[len("apiserver_request_total{"):sp]
		if label(labels, "resource") == "bindings" {
			bindings[strings.TrimSpace(label(labels, "verb")+" "+label(labels, "subresource"))] += v
		}
	}
	return total, bindings, sc.Err()
}

// label returns one label's value from a Prometheus label set.
func label(labels, name string) string {
	i := strings.Index(labels, name+`="`)
	if i < 0 || (i > 0 && labels[i-1] != ',') {
		return ""
	}
	rest := labels[i+len(name)+2:]
	return rest[:strings.IndexByte(rest, '"')]
}
