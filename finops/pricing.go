package finops

import (
	"fmt"

	"github.com/condengine/condengine/internal/safejson"
)

// PricingData is the text a host stores under data[PricingKey] of the
// OpenCost pricing ConfigMap for doc (pricebook.Result.Document): a JSON
// object, keys in order, that Decode reads back as doc. A rate is the
// book's own text (a percent book's rates are not parsed), so it may
// hold anything; a character a YAML reader refuses (a C1 control, DEL,
// …) is written as a \u escape, so the ConfigMap's apply body carries
// the text whatever client builds that body, and the value OpenCost
// decodes is the book's own.
func PricingData(doc map[string]string) (string, error) {
	b, err := safejson.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("finops: pricing document: %w", err)
	}
	return string(b), nil
}
