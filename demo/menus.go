package main

import (
	"fmt"
	"strings"

	"github.com/g3n/engine/gui"
	"github.com/g3n/engine/gui/assets/icon"
	"github.com/g3n/engine/math32"
)

// Menu layout, pixels.
const (
	menuWidth = 380
	menuPad   = 14
	menuGap   = 8
)

// Colours of the game's panels and text.
var (
	panelColour  = math32.Color4{R: 0.1, G: 0.11, B: 0.13, A: 0.9}
	borderColour = math32.Color{R: 0.45, G: 0.47, B: 0.55}
	textColour   = math32.Color{R: 1, G: 1, B: 1}
	starColour   = math32.Color{R: 1, G: 0.8, B: 0.15}
)

// menuItem is one button of a menu: its words and what a click does.
type menuItem struct {
	text string
	act  func()
}

// gameUI holds the game's panels: the start screen's level list, the pause menu, the banner of a
// won or lost level, the level's goal shown on entry, and the stars beside the HUD line.
type gameUI struct {
	start, menu, banner *gui.Panel
	bannerText          *gui.Label
	bannerStars         *gui.Label
	goal                *gui.Label
	hudStars            *gui.Label
	// bestStars are the start screen's stars beside each level's button: the best of its wins.
	bestStars []*gui.Label
	// width and height are the window's size at the last layout, for placing a panel whose text
	// changed since.
	width, height int
	// hudBottom is the HUD's bottom edge at the last layout (hudBottom).
	hudBottom float32
}

// newMenu returns a hidden panel with a title and a column of buttons, its title label and its
// buttons.
func newMenu(title string, items []menuItem) (*gui.Panel, *gui.Label, []*gui.Button) {
	p := gui.NewPanel(menuWidth, 0)
	p.SetColor4(&panelColour)
	p.SetBorders(1, 1, 1, 1)
	p.SetBordersColor(&borderColour)
	t := gui.NewLabel(title)
	t.SetFontSize(22)
	t.SetColor(&textColour)
	t.SetPosition(menuPad, menuPad)
	p.Add(t)
	y := menuPad + t.Height() + 2*menuGap
	var buttons []*gui.Button
	for _, it := range items {
		b := gui.NewButton(it.text)
		b.SetWidth(menuWidth - 2*menuPad)
		b.SetPosition(menuPad, y)
		act := it.act
		b.Subscribe(gui.OnClick, func(string, interface{}) {
			// A clicked button keeps the keyboard, which would then skip the game's own keys'
			// meaning (Enter would click it again).
			gui.Manager().SetKeyFocus(nil)
			act()
		})
		p.Add(b)
		buttons = append(buttons, b)
		y += b.Height() + menuGap
	}
	p.SetHeight(y + menuPad - menuGap)
	p.SetVisible(false)
	return p, t, buttons
}

// newStars returns a hidden label that shows stars in the icon font.
func newStars(size float64) *gui.Label {
	s := gui.NewIcon("")
	s.SetFontSize(size)
	s.SetColor(&starColour)
	s.SetVisible(false)
	return s
}

// starIcons writes n of 3 stars: filled, then hollow.
func starIcons(n int) string {
	n = max(0, min(n, 3))
	return strings.Repeat(icon.Star, n) + strings.Repeat(icon.StarBorder, 3-n)
}

// buildUI makes the game's panels and adds them to the scene root. The level list and the pause
// menu offer Quit when quit is not nil.
func (g *game) buildUI(quit func()) {
	ui := &gameUI{}
	var items []menuItem
	for i, l := range levels {
		i := i
		items = append(items, menuItem{text: fmt.Sprintf("%d. %s: %s", i+1, l.title, goalName(l.goal)), act: func() { g.enterLevel(i) }})
	}
	pause := []menuItem{
		{"Resume (Esc)", g.resume},
		{"Restart (R)", g.restart},
		{"Level list", g.showStart},
	}
	if quit != nil {
		items = append(items, menuItem{text: "Quit", act: quit})
		pause = append(pause, menuItem{"Quit", quit})
	}
	var buttons []*gui.Button
	ui.start, _, buttons = newMenu("stagger: choose a level", items)
	for i := range levels {
		// On the button's right end, above it (added after it), vertically centred.
		s := newStars(16)
		s.SetText(starIcons(0))
		b := buttons[i]
		s.SetPosition(b.Position().X+b.Width()-s.Width()-8, b.Position().Y+(b.Height()-s.Height())/2)
		s.SetVisible(true)
		ui.start.Add(s)
		ui.bestStars = append(ui.bestStars, s)
	}
	ui.menu, _, _ = newMenu("Paused", pause)
	ui.banner, ui.bannerText, _ = newMenu("", []menuItem{
		{"Next level (Enter)", g.nextLevel},
		{"Play again (R)", g.restart},
		{"Level list", g.showStart},
	})
	ui.bannerStars = newStars(30)
	ui.banner.Add(ui.bannerStars)
	ui.goal = gui.NewLabel("")
	ui.goal.SetFontSize(18)
	ui.goal.SetColor(&textColour)
	ui.goal.SetBgColor4(&panelColour)
	ui.goal.SetPaddings(8, 12, 8, 12)
	ui.goal.SetVisible(false)
	ui.hudStars = newStars(18)
	for _, p := range []gui.IPanel{ui.start, ui.menu, ui.banner, ui.goal, ui.hudStars} {
		g.root.Add(p)
	}
	g.ui = ui
	g.showBestStars()
}

// showBestStars sets the start screen's stars from the player's record: filled for the best win
// of each level, hollow for the rest.
func (g *game) showBestStars() {
	for i, l := range levels {
		g.ui.bestStars[i].SetText(starIcons(g.record[l.scene]))
	}
}

// recordResult records the stars of a won level in the player's record, saving it, and shows
// them on the start screen. A record that cannot be saved is kept for this game and says so.
func (g *game) recordResult() {
	if g.prog == nil || g.prog.state != won || g.levelIdx < 0 {
		return
	}
	if err := recordWin(g.record, g.store, levels[g.levelIdx].scene, g.prog.stars()); err != nil {
		g.showNotice("Your stars could not be saved:\n" + err.Error())
	}
	g.showBestStars()
}

// goalName names a goal in a word or two, for the level list.
func goalName(k goalKind) string {
	switch k {
	case goalTopple:
		return "bring it down"
	case goalTarget:
		return "knock off the top"
	case goalStand:
		return "keep it standing"
	case goalKnockOff:
		return "knock the jelly off"
	}
	return ""
}

// layoutUI places the panels for a window of w × h pixels: menus in the middle, a little high, the
// goal near the bottom, clear of the structure.
func (g *game) layoutUI(w, h int) {
	g.ui.width, g.ui.height = w, h
	// The level list, seven levels tall, reached up under the status lines and the step plot.
	g.ui.hudBottom = g.hudBottom()
	for _, p := range []*gui.Panel{g.ui.start, g.ui.menu, g.ui.banner} {
		p.SetPosition((float32(w)-p.Width())/2, panelTop(float32(h), p.Height(), g.ui.hudBottom))
	}
	g.ui.goal.SetPosition((float32(w)-g.ui.goal.Width())/2, float32(h)*11/12-g.ui.goal.Height())
}

// panelTop returns the top of a centred panel of height panelH in a window of height windowH: a
// third of the way down, but below the HUD, whose bottom edge is hudBottom, and inside the window.
func panelTop(windowH, panelH, hudBottom float32) float32 {
	y := max((windowH-panelH)/3, hudBottom+menuGap)
	return max(0, min(y, windowH-panelH))
}

// hudBottom returns how far down the window the status lines and the step plot reach, 0 before
// they exist.
func (g *game) hudBottom() float32 {
	if g.label == nil {
		return 0
	}
	b := g.label.Position().Y + g.label.Height()
	if g.plot.panel.Visible() {
		b += plotMargin/2 + g.plot.panel.Height()
	}
	return b
}

// menuOpen reports whether a panel that takes the mouse is showing: then clicks do not throw.
func (g *game) menuOpen() bool {
	return g.ui.start.Visible() || g.ui.menu.Visible() || g.ui.banner.Visible()
}

// showStart shows the level list over the running level.
func (g *game) showStart() {
	g.ui.menu.SetVisible(false)
	g.ui.banner.SetVisible(false)
	g.ui.goal.SetVisible(false)
	g.ui.start.SetVisible(true)
	g.paused = false
}

// openMenu pauses the level and shows the pause menu.
func (g *game) openMenu() {
	g.ui.menu.SetVisible(true)
	g.paused = true
}

// resume closes the pause menu and lets the level run.
func (g *game) resume() {
	g.ui.menu.SetVisible(false)
	g.paused = false
}

// restart builds the level anew.
func (g *game) restart() {
	g.ui.menu.SetVisible(false)
	g.ui.banner.SetVisible(false)
	g.paused = false
	g.follow.stop()
	g.lastErr = g.reset()
	g.showGoal()
}

// nextLevel enters the level after this one (the first after the last, or after a free scene).
func (g *game) nextLevel() {
	g.enterLevel((g.levelIdx + 1) % len(levels))
}

// showGoal shows the level's goal for a few seconds.
func (g *game) showGoal() {
	if g.prog == nil {
		g.ui.goal.SetVisible(false)
		return
	}
	// One sentence a line, so that the goal fits a narrow window; centred for its new width.
	g.ui.goal.SetText(g.prog.lvl.title + "\n" + strings.ReplaceAll(g.prog.lvl.goalText(), ". ", ".\n"))
	g.layoutUI(g.ui.width, g.ui.height)
	g.ui.goal.SetVisible(true)
	g.goalLeft = goalShown
}

// goalShown, s, is how long a level's goal stays on the screen after entering it.
const goalShown = 6.0

// showNotice shows text where the goal is shown, for goalShown seconds: the banner that says what
// a key just changed.
func (g *game) showNotice(text string) {
	if text == "" {
		return
	}
	g.ui.goal.SetText(text)
	g.layoutUI(g.ui.width, g.ui.height)
	g.ui.goal.SetVisible(true)
	g.goalLeft = goalShown
}

// solverNotice is the banner shown when the S key switches the contact solver to method: what the
// player should expect to see change. "" for an unknown method.
func solverNotice(method string) string {
	switch method {
	case "sp":
		return "Contact solver: Staggered Projections\nExact contact: stacks, card houses and arches stand.\nS: PGS, the approximate solver most engines use."
	case "pgs":
		return "Contact solver: projected Gauss–Seidel, 50 sweeps\nApproximate, as most engines: watch stacks creep,\ncards slide apart and heavy pieces sink. S: next solver."
	case "lcp":
		return "Contact solver: Lemke's LCP with pyramid friction\nExact but slow: for small scenes only.\nS: back to Staggered Projections."
	}
	return ""
}

// showResult shows the banner of a won or lost level.
func (g *game) showResult() {
	g.ui.goal.SetVisible(false)
	g.ui.bannerText.SetText(g.prog.resultText())
	g.ui.bannerStars.SetVisible(g.prog.state == won)
	g.ui.bannerStars.SetText(starIcons(g.prog.stars()))
	g.ui.bannerStars.SetPosition(menuPad+g.ui.bannerText.Width()+12, menuPad-4)
	g.ui.banner.SetVisible(true)
	g.recordResult()
}

// updateHUDStars shows the stars a win would earn now beside the HUD line. It runs every frame, so
// the label is set only when its stars change (setLabelText): set every frame, it was redrawn,
// uploaded and its mipmaps regenerated every frame, about 1 ms of a frame's render under llvmpipe.
func (g *game) updateHUDStars() {
	if g.prog == nil || g.lastErr != nil {
		g.ui.hudStars.SetVisible(false)
		return
	}
	n := g.prog.stars()
	if g.prog.state == playing {
		n = g.prog.starsInReach()
	}
	setLabelText(g.ui.hudStars, starIcons(n))
	g.ui.hudStars.SetPosition(g.label.Position().X+g.label.Width()+8, g.label.Position().Y)
	g.ui.hudStars.SetVisible(true)
}
