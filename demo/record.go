package main

import (
	"encoding/json"
	"sort"
)

// recordEnv, when set on the desktop, is the path of the star record file, instead of stars.json
// under the user's configuration directory; the tests point it at a temporary directory.
const recordEnv = "STAGGER_RECORD"

// starRecord is the player's best stars per level, keyed by the level's scene name (levels' names
// are stable; their titles may be reworded). A level never won is absent.
type starRecord map[string]int

// recordStore keeps the record's encoded form between games: a file on the desktop
// (record_desktop.go), the page's localStorage in the browser (record_js.go). load returns nil
// data, without an error, when nothing has been stored yet.
type recordStore interface {
	load() ([]byte, error)
	save(data []byte) error
}

// parseRecord decodes a stored record. Anything that is not a JSON object of whole star counts
// is an empty record, and entries outside 1 to 3 stars are dropped: a corrupt or hand-edited
// file costs the player their record, never the game.
func parseRecord(data []byte) starRecord {
	var raw map[string]json.Number
	r := starRecord{}
	if err := json.Unmarshal(data, &raw); err != nil {
		return r
	}
	for k, v := range raw {
		n, err := v.Int64()
		if err == nil && n >= 1 && n <= 3 && k != "" {
			r[k] = int(n)
		}
	}
	return r
}

// encode writes the record as one JSON object, its keys sorted (encoding/json sorts map keys),
// so the same record always writes the same bytes.
func (r starRecord) encode() []byte {
	data, _ := json.Marshal(map[string]int(r)) // a map of strings to ints always encodes
	return data
}

// merge records a win of stars on level; it keeps the best, and reports whether the record
// changed. A count outside 1 to 3 is ignored.
func (r starRecord) merge(level string, stars int) bool {
	if stars < 1 || stars > 3 || level == "" || r[level] >= stars {
		return false
	}
	r[level] = stars
	return true
}

// mergeAll merges every entry of o into r (the best of each), and reports whether r changed:
// the record stored by another game running alongside is kept when this one saves.
func (r starRecord) mergeAll(o starRecord) bool {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	changed := false
	for _, k := range keys {
		changed = r.merge(k, o[k]) || changed
	}
	return changed
}

// loadRecord reads the record from s; a store that cannot be read, or holds nothing, gives an
// empty record. A nil store is an empty record.
func loadRecord(s recordStore) starRecord {
	if s == nil {
		return starRecord{}
	}
	data, err := s.load()
	if err != nil || data == nil {
		return starRecord{}
	}
	return parseRecord(data)
}

// recordWin merges a win of stars on level into r and, when that improved it, saves r to s
// together with whatever s holds now (the best of both). A nil store keeps the record in memory.
func recordWin(r starRecord, s recordStore, level string, stars int) error {
	if !r.merge(level, stars) || s == nil {
		return nil
	}
	r.mergeAll(loadRecord(s))
	return s.save(r.encode())
}
