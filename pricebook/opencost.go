package pricebook

import (
	"maps"

	finopsv1 "github.com/condengine/condengine/api/finops/v1alpha1"
)

// Keys of the OpenCost custom pricing document.
const (
	KeyProvider              = "provider"
	KeyDescription           = "description"
	KeyCPU                   = "CPU"
	KeySpotCPU               = "spotCPU"
	KeyRAM                   = "RAM"
	KeySpotRAM               = "spotRAM"
	KeyGPU                   = "GPU"
	KeyStorage               = "storage"
	KeyZoneNetworkEgress     = "zoneNetworkEgress"
	KeyRegionNetworkEgress   = "regionNetworkEgress"
	KeyInternetNetworkEgress = "internetNetworkEgress"
)

// DescriptionPrefix starts the document's description; the book's name
// follows, so switching to another book changes the document even when
// the rates are equal.
const DescriptionPrefix = "Pricebook from: "

// Document renders the OpenCost pricing document for b: each rate as the
// string written on the book ("0" when empty or unset), network egress in
// all three zones from networkGiB, provider custom, and a description
// naming the book. The map is new; the caller owns it.
func Document(b *finopsv1.PriceBook) map[string]string {
	r := b.Spec.Rates
	v := func(f Field) string {
		if s := RateValue(r, f); s != "" {
			return s
		}
		return "0"
	}
	net := v(NetworkGiB)
	return map[string]string{
		KeyProvider:              "custom",
		KeyDescription:           DescriptionPrefix + b.Name,
		KeyCPU:                   v(CPUHour),
		KeySpotCPU:               v(SpotCPUHour),
		KeyRAM:                   v(RAMGbHour),
		KeySpotRAM:               v(SpotRAMGbHour),
		KeyGPU:                   v(GPUHour),
		KeyStorage:               v(PVGbHour),
		KeyZoneNetworkEgress:     net,
		KeyRegionNetworkEgress:   net,
		KeyInternetNetworkEgress: net,
	}
}

// DocumentChanged reports whether pushing doc would change what OpenCost
// holds (previous): only a change restarts OpenCost.
func DocumentChanged(previous, doc map[string]string) bool {
	return !maps.Equal(previous, doc)
}
