package exacttest_test

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/condengine/condengine/internal/exacttest"
)

// A generation decoded into a float64 comes out rounded; decoded as a
// json.Number it comes out as written.
func Example() {
	doc := []byte(`{"generation": ` + exacttest.Above53 + `}`)
	var loose map[string]any
	_ = json.Unmarshal(doc, &loose)
	fmt.Println(strconv.FormatFloat(loose["generation"].(float64), 'f', -1, 64))
	var exact struct{ Generation json.Number }
	_ = json.Unmarshal(doc, &exact)
	fmt.Println(exact.Generation)
	// Output:
	// 9007199254740992
	// 9007199254740993
}
