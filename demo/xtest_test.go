package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// xInput is a connection to the X server of $DISPLAY that makes input with its XTEST extension,
// as a user's pointer and keyboard would: the server delivers the events to the window under the
// pointer, and GLFW reads them as any other. It speaks the X11 protocol itself (little-endian), so
// that the window tests need no X tool.
type xInput struct {
	conn  net.Conn
	root  uint32 // the first screen's root window
	xtest byte   // the XTEST extension's major opcode
	// minKey and maxKey are the server's keycode range.
	minKey, maxKey byte
}

// X11 core requests and XTEST's fake input events used by xInput.
const (
	xQueryPointer       = 38
	xGetInputFocus      = 43
	xQueryExtension     = 98
	xGetKeyboardMapping = 101
	xtestFakeInput      = 2
	xKeyPress           = 2
	xKeyRelease         = 3
	xButtonPress        = 4
	xButtonRelease      = 5
	xMotionNotify       = 6
)

// dialX connects to the X server of $DISPLAY (":N", a local one) with the MIT-MAGIC-COOKIE-1 of
// $XAUTHORITY (or ~/.Xauthority) when there is one, and finds its XTEST extension.
func dialX() (*xInput, error) {
	display := os.Getenv("DISPLAY")
	if !strings.HasPrefix(display, ":") {
		return nil, fmt.Errorf("DISPLAY %q is not a local display", display)
	}
	num, _, _ := strings.Cut(display[1:], ".")
	if _, err := strconv.Atoi(num); err != nil {
		return nil, fmt.Errorf("DISPLAY %q: %v", display, err)
	}
	conn, err := net.Dial("unix", "/tmp/.X11-unix/X"+num)
	if err != nil {
		return nil, err
	}
	x := &xInput{conn: conn}
	if err := x.setup(xauthCookie(num)); err != nil {
		conn.Close()
		return nil, err
	}
	return x, nil
}

// xauthCookie returns the MIT-MAGIC-COOKIE-1 for display number num in the X authority file, nil
// when there is none.
func xauthCookie(num string) []byte {
	path := os.Getenv("XAUTHORITY")
	if path == "" {
		home, _ := os.UserHomeDir()
		path = filepath.Join(home, ".Xauthority")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	// Each entry: a 2-byte family, then address, display number, name and data, each a 2-byte
	// big-endian length and its bytes.
	r := bytes.NewReader(data)
	field := func() ([]byte, bool) {
		var n uint16
		if binary.Read(r, binary.BigEndian, &n) != nil {
			return nil, false
		}
		b := make([]byte, n)
		_, err := io.ReadFull(r, b)
		return b, err == nil
	}
	for {
		var family uint16
		if binary.Read(r, binary.BigEndian, &family) != nil {
			return nil
		}
		_, ok1 := field()
		number, ok2 := field()
		name, ok3 := field()
		cookie, ok4 := field()
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil
		}
		if string(name) == "MIT-MAGIC-COOKIE-1" && (len(number) == 0 || string(number) == num) {
			return cookie
		}
	}
}

// pad4 is n rounded up to a multiple of 4.
func pad4(n int) int { return (n + 3) &^ 3 }

// setup opens the connection (with cookie, if any), keeps the first screen's root window and
// the keycode range, and asks for the XTEST extension's opcode.
func (x *xInput) setup(cookie []byte) error {
	authName := ""
	if cookie != nil {
		authName = "MIT-MAGIC-COOKIE-1"
	}
	req := make([]byte, 12+pad4(len(authName))+pad4(len(cookie)))
	req[0] = 'l'
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint16(req[6:], uint16(len(authName)))
	binary.LittleEndian.PutUint16(req[8:], uint16(len(cookie)))
	copy(req[12:], authName)
	copy(req[12+pad4(len(authName)):], cookie)
	if _, err := x.conn.Write(req); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(x.conn, head); err != nil {
		return err
	}
	body := make([]byte, 4*int(binary.LittleEndian.Uint16(head[6:])))
	if _, err := io.ReadFull(x.conn, body); err != nil {
		return err
	}
	if head[0] != 1 {
		return fmt.Errorf("the X server refused the connection: %q", body[:min(len(body), int(head[1]))])
	}
	vendorLen := int(binary.LittleEndian.Uint16(body[16:]))
	formats := int(body[21])
	x.minKey, x.maxKey = body[26], body[27]
	screen := 32 + pad4(vendorLen) + 8*formats
	if len(body) < screen+4 {
		return fmt.Errorf("the X server's setup reply is short")
	}
	x.root = binary.LittleEndian.Uint32(body[screen:])
	const name = "XTEST"
	q := make([]byte, 8+pad4(len(name)))
	q[0] = xQueryExtension
	binary.LittleEndian.PutUint16(q[2:], uint16(len(q)/4))
	binary.LittleEndian.PutUint16(q[4:], uint16(len(name)))
	copy(q[8:], name)
	reply, err := x.request(q)
	if err != nil {
		return err
	}
	if reply[8] == 0 {
		return fmt.Errorf("the X server has no XTEST extension")
	}
	x.xtest = reply[9]
	return nil
}

// request sends a request that has a reply and returns the reply.
func (x *xInput) request(req []byte) ([]byte, error) {
	if _, err := x.conn.Write(req); err != nil {
		return nil, err
	}
	for {
		head := make([]byte, 32)
		if _, err := io.ReadFull(x.conn, head); err != nil {
			return nil, err
		}
		switch head[0] {
		case 0:
			return nil, fmt.Errorf("X error %d for request %d", head[1], head[10])
		case 1:
			rest := make([]byte, 4*int(binary.LittleEndian.Uint32(head[4:])))
			if _, err := io.ReadFull(x.conn, rest); err != nil {
				return nil, err
			}
			return append(head, rest...), nil
		}
		// An event: none is selected, but skip it if one comes.
	}
}

// fake sends one XTEST event of kind with detail (a keycode or button) at root position (px, py),
// then waits for the server to have handled it.
func (x *xInput) fake(kind, detail byte, px, py int16) error {
	req := make([]byte, 36)
	req[0], req[1] = x.xtest, xtestFakeInput
	binary.LittleEndian.PutUint16(req[2:], 9)
	req[4], req[5] = kind, detail
	binary.LittleEndian.PutUint32(req[12:], x.root)
	binary.LittleEndian.PutUint16(req[24:], uint16(px))
	binary.LittleEndian.PutUint16(req[26:], uint16(py))
	if _, err := x.conn.Write(req); err != nil {
		return err
	}
	_, err := x.request([]byte{xGetInputFocus, 0, 1, 0})
	return err
}

// windowUnder moves the pointer to root position (px, py) and returns the top-level window under
// it, 0 for none.
func (x *xInput) windowUnder(px, py int16) (uint32, error) {
	if err := x.fake(xMotionNotify, 0, px, py); err != nil {
		return 0, err
	}
	req := make([]byte, 8)
	req[0] = xQueryPointer
	binary.LittleEndian.PutUint16(req[2:], 2)
	binary.LittleEndian.PutUint32(req[4:], x.root)
	reply, err := x.request(req)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(reply[12:]), nil
}

// click presses and releases the left button at root position (px, py).
func (x *xInput) click(px, py int16) error {
	if err := x.fake(xMotionNotify, 0, px, py); err != nil {
		return err
	}
	if err := x.fake(xButtonPress, 1, px, py); err != nil {
		return err
	}
	time.Sleep(50 * time.Millisecond)
	return x.fake(xButtonRelease, 1, px, py)
}

// keycode returns the keycode whose keysyms include keysym.
func (x *xInput) keycode(keysym uint32) (byte, error) {
	count := int(x.maxKey) - int(x.minKey) + 1
	reply, err := x.request([]byte{xGetKeyboardMapping, 0, 2, 0, x.minKey, byte(count), 0, 0})
	if err != nil {
		return 0, err
	}
	per := int(reply[1])
	syms := reply[32:]
	for i := 0; i < count && per > 0; i++ {
		for j := 0; j < per; j++ {
			if o := 4 * (i*per + j); o+4 <= len(syms) && binary.LittleEndian.Uint32(syms[o:]) == keysym {
				return byte(int(x.minKey) + i), nil
			}
		}
	}
	return 0, fmt.Errorf("no key of the keyboard map gives keysym %#x", keysym)
}

// tap presses and releases the key with keycode code.
func (x *xInput) tap(code byte) error {
	if err := x.fake(xKeyPress, code, 0, 0); err != nil {
		return err
	}
	time.Sleep(50 * time.Millisecond)
	return x.fake(xKeyRelease, code, 0, 0)
}

// close closes the connection.
func (x *xInput) close() error { return x.conn.Close() }
