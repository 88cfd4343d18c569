//go:build !js

package main

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/g3n/engine/gls"
)

// saveScreenshot reads the w×h framebuffer and writes it to path as a PNG. RGBA rows of 4w bytes
// meet OpenGL's default pack alignment of 4.
func saveScreenshot(g *gls.GLS, w, h int, path string) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("screenshot: framebuffer is %d×%d", w, h)
	}
	pix := g.ReadPixels(0, 0, w, h, gls.RGBA, gls.UNSIGNED_BYTE)
	if len(pix) < w*h*4 {
		return fmt.Errorf("screenshot: read %d bytes, want %d", len(pix), w*h*4)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	// OpenGL's rows run bottom-up.
	for y := 0; y < h; y++ {
		copy(img.Pix[y*img.Stride:y*img.Stride+w*4], pix[(h-1-y)*w*4:(h-y)*w*4])
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255 // the framebuffer's alpha is not the picture's
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
