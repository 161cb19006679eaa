package jetstream

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/mmaes-go/mmaes"
)

// BenchmarkThroughput runs a generation (b.N of them) with 8 worker
// processes whose objective takes 10 ms, fetching tasks one at a time or
// with Prefetch, λ = 32, on an embedded server
// (file store, loopback). evals/s is against the ideal 8/10 ms = 800/s
// (efficiency); overhead-ms/gen is the coordinator's time between a
// generation's last result and the next one's last task published (Tell,
// Ask, publish), which the workers spend idle; checkpoint-ms/gen is the
// time storing the checkpoint, while the workers evaluate.
func BenchmarkThroughput(b *testing.B) {
	const workers, lambda = 8, 32
	for _, n := range []int{8, 128, 1024} {
		for _, prefetch := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/prefetch=%v", n, prefetch), func(b *testing.B) {
				ts := startServer(b)
				runID := fmt.Sprintf("bench-%d-%d", n, b.N)
				pf := "PREFETCH=0"
				if prefetch {
					pf = "PREFETCH=1"
				}
				for i := range workers {
					startRole(b, "worker", "URL="+ts.url(), "RUN="+runID, "NAME=w"+strconv.Itoa(i), "DELAY_US=10000", pf)
				}
				cfg := mmaes.DefaultConfig(n)
				cfg.Seed = 1
				cfg.Lambda = lambda
				cfg.MaxGenerations = b.N
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				defer cancel()
				c, err := NewCoordinator(ctx, connect(b, ts.url()), CoordinatorConfig{RunID: runID, Optimizer: cfg})
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				start := time.Now()
				res, err := c.Run(ctx)
				wall := time.Since(start)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				rate := float64(res.Evals) / wall.Seconds()
				b.ReportMetric(rate, "evals/s")
				b.ReportMetric(100*rate/(workers/0.010), "%ideal")
				st := c.Stats()
				b.ReportMetric(st.Overhead.Seconds()*1e3/float64(res.Generations), "overhead-ms/gen")
				b.ReportMetric(st.Checkpoint.Seconds()*1e3/float64(res.Generations), "checkpoint-ms/gen")
			})
		}
	}
}
