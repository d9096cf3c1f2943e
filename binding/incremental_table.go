package binding

import "math/bits"

// hashTable is an open-addressing table of nonzero 64-bit keys, each
// with an int32 value unless the table is a set. An Incremental holds
// about one entry per Binding in each of its tables, and a Go map of a
// million entries gets twice the slots it needs (its tables grow in
// powers of two) with a control byte and padding each: 25 to 40 bytes
// per entry. Here a slot is the key and the value, 12 bytes (8 in a
// set), and a table sized from a count is filled up to 13/16 before it
// doubles.
//
// A key may be held more than once (two UIDs sharing a hash); find
// walks every entry of a key. Keys are placed by linear probing from a
// home slot that a multiplicative hash of the key picks, and removed by
// moving the entries after them back, so a table never fills with
// deleted slots.
type hashTable struct {
	keys  []uint64
	vals  []int32 // nil in a set
	n     int
	shift uint8 // 64 less the bits of a slot's index
	set   bool
}

// newHashTable returns a table sized to hold n entries without growing;
// set leaves out the values.
func newHashTable(n int, set bool) hashTable {
	t := hashTable{set: set}
	t.resize(slotsFor(n))
	return t
}

// slotsFor is the smallest power of two, at least 8, that holds n
// entries at a load of 13/16 or less.
func slotsFor(n int) int {
	size := 8
	for size*13/16 < n {
		size *= 2
	}
	return size
}

func (t *hashTable) resize(size int) {
	keys, vals := t.keys, t.vals
	t.keys, t.n = make([]uint64, size), 0
	t.shift = uint8(64 - bits.TrailingZeros(uint(size)))
	t.vals = nil
	if !t.set {
		t.vals = make([]int32, size)
	}
	for i, k := range keys {
		if k != 0 {
			var v int32
			if vals != nil {
				v = vals[i]
			}
			t.insert(k, v)
		}
	}
}

// home is the slot a key is placed from: the top bits of the key times
// an odd constant near 2^64 divided by the golden ratio, which spreads
// consecutive numbers as evenly as it spreads hashes.
func (t *hashTable) home(k uint64) int {
	return int((k * 0x9E3779B97F4A7C15) >> t.shift)
}

func (t *hashTable) next(i int) int { return (i + 1) & (len(t.keys) - 1) }

func (t *hashTable) val(i int) int32 {
	if t.set {
		return 0
	}
	return t.vals[i]
}

// insert adds an entry, whether or not the key is held already.
func (t *hashTable) insert(k uint64, v int32) {
	if (t.n+1)*16 > len(t.keys)*13 {
		t.resize(max(8, len(t.keys)*2))
	}
	i := t.home(k)
	for t.keys[i] != 0 {
		i = t.next(i)
	}
	t.keys[i] = k
	if !t.set {
		t.vals[i] = v
	}
	t.n++
}

// find returns the value of the first entry of k for which match is
// true (match nil takes the first entry).
func (t *hashTable) find(k uint64, match func(int32) bool) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	for i := t.home(k); t.keys[i] != 0; i = t.next(i) {
		if t.keys[i] == k && (match == nil || match(t.val(i))) {
			return t.val(i), true
		}
	}
	return 0, false
}

// has reports whether k is held.
func (t *hashTable) has(k uint64) bool {
	_, ok := t.find(k, nil)
	return ok
}

// remove drops the entry of k with value v (in a set, the entry of k)
// and reports whether there was one.
func (t *hashTable) remove(k uint64, v int32) bool {
	if t.n == 0 {
		return false
	}
	i := t.home(k)
	for ; t.keys[i] != 0; i = t.next(i) {
		if t.keys[i] == k && t.val(i) == v {
			break
		}
	}
	if t.keys[i] == 0 {
		return false
	}
	// Move back each later entry of the run whose home is not between
	// the hole and itself, so every entry stays reachable from its home.
	mask := len(t.keys) - 1
	for j := t.next(i); t.keys[j] != 0; j = t.next(j) {
		if (j-t.home(t.keys[j]))&mask >= (j-i)&mask {
			t.keys[i] = t.keys[j]
			if !t.set {
				t.vals[i] = t.vals[j]
			}
			i = j
		}
	}
	t.keys[i] = 0
	t.n--
	return true
}

// each calls fn with the key and value of every entry, in slot order.
func (t *hashTable) each(fn func(k uint64, v int32)) {
	for i, k := range t.keys {
		if k != 0 {
			fn(k, t.val(i))
		}
	}
}

// nonzero maps a hash onto the keys a table can hold (0 marks an empty
// slot); one more hash in 2^64 is shared.
func nonzero(h uint64) uint64 { return max(h, 1) }
