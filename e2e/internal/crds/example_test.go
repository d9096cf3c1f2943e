package crds_test

import (
	"fmt"

	"github.com/condengine/condengine/e2e/internal/crds"
)

func ExampleLoad() {
	dir, err := crds.Dir()
	if err != nil {
		fmt.Println(err)
		return
	}
	all, err := crds.Load(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, crd := range all {
		fmt.Println(crd.Name, crd.Spec.Scope, crd.Spec.Names.ShortNames)
	}
	// Output:
	// agentbackends.agentkourier.dev Namespaced [akbackend]
	// bindings.agentkourier.dev Namespaced [akbinding]
	// chatconnections.agentkourier.dev Namespaced [akconnection]
	// costjobs.finops.stakater.com Namespaced []
	// finopsproviders.finops.stakater.com Cluster []
	// offerings.finops.stakater.com Namespaced []
	// pricebooks.finops.stakater.com Namespaced []
	// subscriptions.finops.stakater.com Namespaced []
}
