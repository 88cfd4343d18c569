package main

import (
	"fmt"
	"syscall/js"
)

// recordKey is the page's localStorage key of the star record.
const recordKey = "stagger.stars"

// localStore keeps the star record in the page's localStorage.
type localStore struct{ storage js.Value }

// defaultRecordStore returns the page's localStorage, or nil where the page has none (or refuses
// it, as some browsers do for local files): the record then lasts as long as the page.
func defaultRecordStore() (s recordStore) {
	defer func() {
		// Reading localStorage throws (a SecurityError) where storage is disabled.
		if recover() != nil {
			s = nil
		}
	}()
	st := js.Global().Get("localStorage")
	if st.IsUndefined() || st.IsNull() {
		return nil
	}
	return localStore{storage: st}
}

// load reads the stored record; nothing stored is no data.
func (l localStore) load() (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, fmt.Errorf("star record: %v", r)
		}
	}()
	v := l.storage.Call("getItem", recordKey)
	if v.IsNull() || v.IsUndefined() {
		return nil, nil
	}
	return []byte(v.String()), nil
}

// save stores data under recordKey; a full or disabled storage is an error.
func (l localStore) save(data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("star record: %v", r)
		}
	}()
	l.storage.Call("setItem", recordKey, string(data))
	return nil
}
