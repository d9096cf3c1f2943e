#!/usr/bin/env python3
"""A second implementation of part of the FinOps operator: PriceBooks.

It answers the conform protocol (docs/conform.md) for the PriceBook kind
only: each book's Ready (its rates parsed to micro-units), the election of
the one active book, the Active transitions, the status fields `active`,
`ready` and `activePricing`, and the condition merge every kind shares.
It uses the Python standard library alone and was written from
docs/conform.md. Check it with:

    go run ./cmd/condengine conform --system finops --only PriceBook \
        --exec "python3 conformance/examples/pricebook.py"
"""

import datetime
import json
import sys
import unicodedata

ACTIVE_ANNOTATION = "finops.stakater.com/active"
OURS = ["Ready", "Active"]  # the PriceBook's condition types, in order
RATE_FIELDS = ["cpuHour", "spotCPUHour", "ramGbHour", "spotRAMGbHour", "pvGbHour", "gpuHour", "networkGiB"]
MAX_INT64 = 2**63 - 1
MICROS = 1_000_000
MAX_MESSAGE_BYTES = 1024


def parse_time(s):
    """An RFC 3339 instant as an aware datetime (None for absent)."""
    if not s:
        return None
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))


def instant(s):
    """An instant an object carries, read at whole seconds as the API
    server stores it (None for absent)."""
    t = parse_time(s)
    return t.replace(microsecond=0) if t else None


def format_time(t):
    return t.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def printable(ch):
    """Go's unicode.IsPrint above ASCII: letters, marks, numbers,
    punctuation and symbols. A character this Python's Unicode tables do
    not know yet (category Cn) is taken as printable: requests hold
    characters of the engine's newer tables, not unassigned ones."""
    if 0x13439 <= ord(ch) <= 0x1343F:  # format controls new in Unicode 15
        return False
    return unicodedata.category(ch)[0] in "LMNPS" or unicodedata.category(ch) == "Cn"


def go_quote(s):
    """A string quoted as Go's %q does: printable characters as they are,
    the rest escaped."""
    out = ['"']
    for ch in s:
        r = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 0x20 <= r < 0x7F or (r >= 0x80 and printable(ch)):
            out.append(ch)
        elif ch in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}[ch])
        elif r < 0x20 or r == 0x7F:
            out.append("\\x%02x" % r)
        elif r < 0x10000:
            out.append("\\u%04x" % r)
        else:
            out.append("\\U%08x" % r)
    out.append('"')
    return "".join(out)


def fit(msg):
    """A message cut to 1024 bytes on a character boundary, with "…"."""
    b = msg.encode("utf-8")
    if len(b) <= MAX_MESSAGE_BYTES:
        return msg
    room = MAX_MESSAGE_BYTES - len("…".encode("utf-8"))
    return b[:room].decode("utf-8", errors="ignore") + "…"


def rate_problem(s):
    """None when the rate converts to micro-units, else the problem."""
    if s == "":
        return None
    whole, point, frac = s.partition(".")
    digits = set("0123456789")
    if s[0] in "+-":
        return "a sign is not allowed"
    if ("e" in s or "E" in s) and all(c in "0123456789.eE+-" for c in s):
        return "exponent notation is not allowed"
    if whole == "" or not set(whole) <= digits or (point and (frac == "" or not set(frac) <= digits)):
        return "not a plain decimal number (digits, optionally a point and more digits)"
    if len(frac) > 6:
        return "more than 6 decimal places cannot be held in micro-units"
    if int(whole) * MICROS + int((frac + "000000")[:6]) > MAX_INT64:
        return "value is too large for int64 micro-units"
    return None


def readiness(book):
    """The Ready condition's status, reason and message."""
    spec = book.get("spec") or {}
    if spec.get("valuationMode") != "currency":
        return "True", "ValidationSucceeded", ""
    rates = spec.get("rates") or {}
    for field in RATE_FIELDS:
        value = rates.get(field) or ""
        problem = rate_problem(value)
        if problem:
            return "False", "PricebookParseFailed", fit("rate %s (%s): %s" % (go_quote(field), go_quote(value), problem))
    return "True", "ValidationSucceeded", ""


def meta(book, key, default=None):
    return (book.get("metadata") or {}).get(key, default)


def status(book):
    return book.get("status") or {}


def elect(books):
    """The index of the book holding the active slot, or None."""
    best, best_key = None, None
    for i, b in enumerate(books):
        if meta(b, "deletionTimestamp"):
            continue
        annotations = meta(b, "annotations") or {}
        tier = 2 if annotations.get(ACTIVE_ANNOTATION) == "true" else 1 if status(b).get("active") else 0
        created = instant(meta(b, "creationTimestamp"))
        stamp = created.timestamp() if created else float("-inf")
        # Highest tier, then newest, then namespace, name and uid ascending.
        key = (-tier, -stamp, meta(b, "namespace", ""), meta(b, "name", ""), meta(b, "uid", ""))
        if best_key is None or key < best_key:
            best, best_key = i, key
    return best


def document(book):
    rates = (book.get("spec") or {}).get("rates") or {}
    v = lambda f: rates.get(f) or "0"
    net = v("networkGiB")
    return {"provider": "custom", "description": "Pricebook from: " + meta(book, "name", ""),
            "CPU": v("cpuHour"), "spotCPU": v("spotCPUHour"), "RAM": v("ramGbHour"), "spotRAM": v("spotRAMGbHour"),
            "GPU": v("gpuHour"), "storage": v("pvGbHour"),
            "zoneNetworkEgress": net, "regionNetworkEgress": net, "internetNetworkEgress": net}


def merge(book, desired, now):
    """The condition list written: the shared merge rules of docs/conform.md.
    None means the snapshot is stale and nothing is written."""
    generation = meta(book, "generation", 0)
    created = instant(meta(book, "creationTimestamp"))
    current = status(book).get("conditions") or []
    # A transition is never stamped before the object was created (a
    # host clock behind the API server's): it is stamped at creation.
    stamp = max(now, created) if created else now

    def made_before(c):
        t = instant(c.get("lastTransitionTime"))
        return c.get("type") in OURS and t is not None and created is not None and t < created

    held = [c for c in current if not made_before(c)]
    if any(c.get("type") in OURS and c.get("observedGeneration", 0) > generation for c in held):
        return None
    out = []
    for typ in OURS:
        d = next((c for c in desired if c["type"] == typ), None)
        if d is None:
            continue
        c = dict(d)
        if not c.get("observedGeneration"):
            c["observedGeneration"] = generation
        c["lastTransitionTime"] = format_time(stamp)
        was = next((x for x in held if x.get("type") == typ), None)
        if was and was.get("status") == c["status"] and was.get("lastTransitionTime"):
            c["lastTransitionTime"] = was["lastTransitionTime"]
        out.append(c)
    return out + [c for c in current if c.get("type") not in OURS]


def same_condition(a, b):
    """Two conditions alike in every field, times read at whole seconds."""
    return all((a.get(k) or d) == (b.get(k) or d) for k, d in
               (("type", ""), ("status", ""), ("reason", ""), ("message", ""), ("observedGeneration", 0))) and \
        instant(a.get("lastTransitionTime")) == instant(b.get("lastTransitionTime"))


def conditions_changed(current, out):
    """Whether the merged list differs from the object's in a condition of
    ours: one added, dropped, held twice or different in a field. Matched
    by type: the order they stand in is never a change."""
    ours_now = [c for c in current if c.get("type") in OURS]
    ours_out = [c for c in out if c.get("type") in OURS]
    if len(ours_now) != len(ours_out):
        return True
    for c in ours_out:
        same = [x for x in ours_now if x.get("type") == c["type"]]
        if len(same) != 1 or not same_condition(same[0], c):
            return True
    return False


def fields_changed(book, st):
    """Whether the status fields other than conditions would change."""
    now = status(book)
    return bool(now.get("active")) != bool(st.get("active")) or (now.get("ready") or "") != (st.get("ready") or "") or \
        (now.get("activePricing") or {}) != (st.get("activePricing") or {})


def answer(request):
    now = parse_time(request["now"]).replace(microsecond=0)
    books = [o for o in request.get("objects") or [] if o.get("kind") == "PriceBook"]
    winner = elect(books)
    objects = []
    for i, b in enumerate(books):
        won = i == winner
        ready, reason, message = readiness(b)
        desired = [{"type": "Ready", "status": ready, "reason": reason, "message": message,
                    "observedGeneration": meta(b, "generation", 0)}]
        was_active = bool(status(b).get("active"))
        if won and not was_active:
            desired.append({"type": "Active", "status": "True", "reason": "Activated", "message": "",
                            "observedGeneration": meta(b, "generation", 0)})
        elif not won and was_active:
            desired.append({"type": "Active", "status": "False", "reason": "Demoted", "message": "",
                            "observedGeneration": meta(b, "generation", 0)})
        else:
            created = instant(meta(b, "creationTimestamp"))
            for c in status(b).get("conditions") or []:
                t = instant(c.get("lastTransitionTime"))
                if c.get("type") == "Active" and not (t and created and t < created):
                    desired.append(dict(c))
                    break
        conditions = merge(b, desired, now)
        if conditions is None:  # stale: the object as it is
            st = {k: v for k, v in status(b).items() if k != "conditions"}
            conditions = status(b).get("conditions") or []
        else:
            st = {"active": won, "ready": ready}
            if won and ready == "True":
                st["activePricing"] = document(b)
            current = status(b).get("conditions") or []
            if not conditions_changed(current, conditions) and not fields_changed(b, st):
                # Nothing is written: the object keeps its list exactly as
                # it stands, in its own order.
                conditions = current
        obj = {"kind": "PriceBook", "name": meta(b, "name", ""), "conditions": conditions, "status": st}
        if meta(b, "namespace"):
            obj["namespace"] = meta(b, "namespace")
        objects.append(obj)
    return objects


def main():
    for line in sys.stdin.buffer:  # lines end at b"\n" only
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply = {"id": request.get("id"), "objects": answer(request)}
        except Exception as e:  # say so rather than die: conform reports a refusal
            reply = {"id": request.get("id"), "error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
