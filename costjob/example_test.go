package costjob_test

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
	"github.com/condengine/condengine/costjob"
)

func ExampleCron() {
	for _, in := range []string{"60m", "6h", "", "2h", "soon"} {
		cron, known := costjob.Cron(in)
		fmt.Printf("%q -> %q known=%v\n", in, cron, known)
	}
	// Output:
	// "60m" -> "0 * * * *" known=true
	// "6h" -> "0 */6 * * *" known=true
	// "" -> "0 0 * * *" known=true
	// "2h" -> "0 0 * * *" known=false
	// "soon" -> "0 0 * * *" known=false
}

func ExampleRecord() {
	job := finopsv1.CostJob{Spec: finopsv1.CostJobSpec{Type: finopsv1.ResourceCostCollection}}
	at := metav1.NewTime(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	st, write, _ := costjob.Record(job, finopsv1.ExecutionRecord{ExecutionTime: at, Status: finopsv1.Failed,
		Error: "dial tcp 10.0.0.7:5432: connection refused"})
	fmt.Println(write, st.LastExecutionStatus, st.LastSuccessfulExecutionTime == nil)
	fmt.Println(st.ExecutionHistory[0].Error)
	// Output:
	// true Failed true
	// dial tcp [address]: connection refused
}
