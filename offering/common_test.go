package offering_test

import "time"

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
