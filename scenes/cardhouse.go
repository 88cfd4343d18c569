package scenes

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/stagger-physics/stagger/ecs"
)

// Card house geometry: playing-card-like planks 1 cm thick, 0.6 m deep and 0.9 m long, leaning in
// pairs at cardTilt from the vertical.
const (
	cardThick    = 0.01
	cardDepth    = 0.6
	cardLength   = 0.9
	cardDensity  = 500 // kg/m³: 2.7 kg a card
	cardOverhang = 0.004
)

var cardTilt = degrees(18)

// cardhouse is the paper's rigid card house (§8, Fig. 1 and 7) in one plane: n levels; level k has
// n − k tents of two cards leaning against each other (a Λ whose inner top edges meet), and a flat
// card across each pair of neighbouring tents, on which the next level's tents stand. The flat
// cards rest on the outer top edges of the tents' cards, 4 mm from their ends. Every card starts
// exactly touching its supports. It stands when no card drops by 1 cm.
func cardhouse() Scene {
	return Scene{
		Name:     "cardhouse",
		Summary:  "n levels of leaning card pairs with flat cards across, μ 0.8, e 0.1; stands (max_drop < 1 cm)",
		Defaults: Params{N: 3, Mu: 0.8, E: 0.1},
		check:    checkCardhouse,
		build:    buildCardhouse,
	}
}

// checkCardhouse bounds the card house's levels.
func checkCardhouse(p Params) error {
	if p.N > 12 {
		return fmt.Errorf("n is the number of levels and must be at most 12, got %d", p.N)
	}
	return nil
}

// cardPose is one card's centre and orientation.
type cardPose struct {
	position mgl64.Vec3
	rotation mgl64.Quat
}

// cardhouseLayout returns the poses of the card house with n levels: tents then flats, level by
// level from the ground (z = 0) up.
func cardhouseLayout(n int) []cardPose {
	t, l := cardThick, cardLength
	sin, cos := math.Sin(cardTilt), math.Cos(cardTilt)
	// Pitch of neighbouring tents: a flat card spans from one tent's right ridge to the next one's
	// left ridge, overhanging each by cardOverhang.
	pitch := l + 2*t*cos - 2*cardOverhang
	yAxis := mgl64.Vec3{0, 1, 0}
	leftTurn, rightTurn := mgl64.QuatRotate(cardTilt, yAxis), mgl64.QuatRotate(-cardTilt, yAxis)
	flatTurn := mgl64.QuatRotate(math.Pi/2, yAxis)
	var cards []cardPose
	base := 0.0
	for level := 0; level < n; level++ {
		m := n - level
		// A tent at x = X on a support at height base: the cards' lowest corners touch the support,
		// their inner top corners meet at x = X.
		cz := base + sin*t/2 + cos*l/2
		reach := cos*t/2 + sin*l/2
		for j := 0; j < m; j++ {
			x := (float64(j) - float64(m-1)/2) * pitch
			cards = append(cards,
				cardPose{mgl64.Vec3{x - reach, 0, cz}, leftTurn},
				cardPose{mgl64.Vec3{x + reach, 0, cz}, rightTurn})
		}
		// The outer top corners (ridges) are the highest points of a tent.
		ridge := base + sin*t + cos*l
		for j := 0; j+1 < m; j++ {
			x := (float64(j) + 0.5 - float64(m-1)/2) * pitch
			cards = append(cards, cardPose{mgl64.Vec3{x, 0, ridge + t/2}, flatTurn})
		}
		base = ridge + t
	}
	return cards
}

func buildCardhouse(w *ecs.World, p Params) error {
	if err := spawnGround(w, p.Mu); err != nil {
		return err
	}
	half := mgl64.Vec3{cardThick / 2, cardDepth / 2, cardLength / 2}
	for _, c := range cardhouseLayout(p.N) {
		if _, err := spawnBox(w, half, c.position, c.rotation, cardDensity, p); err != nil {
			return err
		}
	}
	return nil
}
