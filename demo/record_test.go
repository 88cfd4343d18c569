//go:build !js

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestStarRecordMerge: a win is recorded, a better one replaces it, a worse one or an impossible
// count leaves it; merging two records keeps the best of each level.
func TestStarRecordMerge(t *testing.T) {
	r := starRecord{}
	steps := []struct {
		level   string
		stars   int
		changed bool
		want    int
	}{
		{"jelly", 1, true, 1},
		{"jelly", 3, true, 3},
		{"jelly", 2, false, 3},
		{"jelly", 4, false, 3},
		{"arch", 0, false, 0},
		{"arch", -1, false, 0},
		{"arch", 2, true, 2},
	}
	for _, s := range steps {
		if got := r.merge(s.level, s.stars); got != s.changed || r[s.level] != s.want {
			t.Errorf("merge(%q, %d): changed %v, record %d; want %v, %d", s.level, s.stars, got, r[s.level], s.changed, s.want)
		}
	}
	if _, ok := r["arch"]; !ok {
		t.Error("arch missing")
	}
	o := starRecord{"arch": 3, "jelly": 1, "stack": 2}
	if !r.mergeAll(o) || !reflect.DeepEqual(r, starRecord{"arch": 3, "jelly": 3, "stack": 2}) {
		t.Errorf("merged record %v", r)
	}
	if r.mergeAll(o) {
		t.Error("merging the same record again changed it")
	}
}

// TestStarRecordParse: a record survives encoding; corrupt data is an empty record, and entries
// that are not 1 to 3 whole stars are dropped.
func TestStarRecordParse(t *testing.T) {
	r := starRecord{"arch": 3, "jelly": 1}
	if got := parseRecord(r.encode()); !reflect.DeepEqual(got, r) {
		t.Errorf("round trip: %v, want %v", got, r)
	}
	if got := string(r.encode()); got != `{"arch":3,"jelly":1}` {
		t.Errorf("encoded %s", got)
	}
	for _, data := range []string{"", "null", "[1,2]", "{", `{"arch":"three"}`, "\x00\xff", `"stars"`} {
		if got := parseRecord([]byte(data)); len(got) != 0 {
			t.Errorf("parse %q: %v, want an empty record", data, got)
		}
	}
	got := parseRecord([]byte(`{"arch":2,"jelly":7,"stack":0,"ratio":1.5,"cardhouse":-1,"":3,"pyramid":3}`))
	if !reflect.DeepEqual(got, starRecord{"arch": 2, "pyramid": 3}) {
		t.Errorf("parse with bad entries: %v", got)
	}
}

// TestStarRecordFile plays the record's life on disk through $STAGGER_RECORD in a temporary
// directory that does not exist yet: a missing file is an empty record; wins are saved, read back
// by a new game, kept at their best, merged with a record another game saved meanwhile, and
// leave no temporary file behind; a corrupt file is an empty record that the next win replaces.
func TestStarRecordFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", "stagger", "stars.json")
	t.Setenv(recordEnv, path)
	s := defaultRecordStore()
	if fs, ok := s.(fileStore); !ok || fs.path != path {
		t.Fatalf("store %#v, want the file %s", s, path)
	}
	r := loadRecord(s)
	if len(r) != 0 {
		t.Fatalf("missing file: record %v", r)
	}
	if err := recordWin(r, s, "jelly", 2); err != nil {
		t.Fatal(err)
	}
	if got := loadRecord(defaultRecordStore()); !reflect.DeepEqual(got, starRecord{"jelly": 2}) {
		t.Errorf("after a win: %v", got)
	}
	// Another game saves its own win; this one's next win keeps it.
	if err := os.WriteFile(path, []byte(`{"arch":3,"jelly":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := recordWin(r, s, "stack", 1); err != nil {
		t.Fatal(err)
	}
	if err := recordWin(r, s, "stack", 1); err != nil { // no better: nothing to save
		t.Fatal(err)
	}
	if got := loadRecord(s); !reflect.DeepEqual(got, starRecord{"arch": 3, "jelly": 2, "stack": 1}) {
		t.Errorf("after a second game's win: %v", got)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "stars.json" {
		t.Errorf("the record's directory holds %v, want stars.json alone", entries)
	}
	if err := os.WriteFile(path, []byte("{\"arch\": 3,"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = loadRecord(s)
	if len(r) != 0 {
		t.Errorf("corrupt file: record %v", r)
	}
	if err := recordWin(r, s, "ratio", 3); err != nil {
		t.Fatal(err)
	}
	if got := loadRecord(s); !reflect.DeepEqual(got, starRecord{"ratio": 3}) {
		t.Errorf("a win over a corrupt file: %v", got)
	}
	// A record whose directory cannot be made is an error for the game to show, not a crash.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := recordWin(starRecord{}, fileStore{path: filepath.Join(blocked, "stars.json")}, "arch", 1); err == nil {
		t.Error("saving under a file: no error")
	}
}
