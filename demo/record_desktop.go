//go:build !js

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// fileStore keeps the star record in a JSON file.
type fileStore struct{ path string }

// defaultRecordStore returns the desktop's record file: $STAGGER_RECORD, or stagger/stars.json
// under os.UserConfigDir. Without a configuration directory (no $HOME) it returns nil: the record
// lasts as long as the game.
func defaultRecordStore() recordStore {
	if p := os.Getenv(recordEnv); p != "" {
		return fileStore{path: p}
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil
	}
	return fileStore{path: filepath.Join(dir, "stagger", "stars.json")}
}

// load reads the file; a missing file is no data, not an error.
func (f fileStore) load() ([]byte, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// save writes data to a temporary file in the record's directory and renames it over the record,
// so a crash or a full disk mid-write leaves the old record whole.
func (f fileStore) save(data []byte) error {
	dir := filepath.Dir(f.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("star record: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".stars-*.json")
	if err != nil {
		return fmt.Errorf("star record: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), f.path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("star record: %w", werr)
	}
	return nil
}
