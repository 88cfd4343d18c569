package physics

import "sync"

// workerPool keeps parked goroutines that help the stepping goroutine solve islands. Each step
// hands every helper the stage by value over a channel and waits for all of them; between steps a
// helper holds no reference to the simulation, so a simulation that is no longer used can be
// collected, and its cleanup closes quit to end the helpers (see NewSimulation).
type workerPool struct {
	tasks chan poolTask
	done  sync.WaitGroup
	quit  chan struct{}
}

// poolTask asks a helper to run stage.work(worker).
type poolTask struct {
	stage  *contactStage
	worker int
}

// newWorkerPool starts helpers parked goroutines.
func newWorkerPool(helpers int) *workerPool {
	p := &workerPool{tasks: make(chan poolTask), quit: make(chan struct{})}
	for i := 0; i < helpers; i++ {
		go p.park()
	}
	return p
}

// park runs tasks until quit is closed.
func (p *workerPool) park() {
	for {
		select {
		case t := <-p.tasks:
			t.stage.work(t.worker)
			p.done.Done()
		case <-p.quit:
			return
		}
	}
}

// start hands the stage to n helpers as workers 1..n.
func (p *workerPool) start(cs *contactStage, n int) {
	p.done.Add(n)
	for w := 1; w <= n; w++ {
		p.tasks <- poolTask{stage: cs, worker: w}
	}
}

// wait returns when every helper started by start has finished.
func (p *workerPool) wait() { p.done.Wait() }

// stop ends the helpers.
func (p *workerPool) stop() { close(p.quit) }
