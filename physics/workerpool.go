package physics

import "sync"

// workerPool keeps parked goroutines that help the stepping goroutine with the parallel parts of a
// step: the narrow phase and the island solves. Each part hands every helper the job over a
// channel and waits for all of them; between parts a helper holds no reference to the simulation,
// so a simulation that is no longer used can be collected, and its cleanup closes quit to end the
// helpers (see NewSimulation).
type workerPool struct {
	tasks    chan poolTask
	done     sync.WaitGroup
	quit     chan struct{}
	stopOnce sync.Once
}

// poolJob is a part of the step that workers share: work(w) takes items until none is left,
// using worker w's buffers. Worker 0 is the stepping goroutine.
type poolJob interface {
	work(worker int)
}

// poolTask asks a helper to run job.work(worker).
type poolTask struct {
	job    poolJob
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
			t.job.work(t.worker)
			p.done.Done()
		case <-p.quit:
			return
		}
	}
}

// start hands the job to n helpers as workers 1..n.
func (p *workerPool) start(job poolJob, n int) {
	p.done.Add(n)
	for w := 1; w <= n; w++ {
		p.tasks <- poolTask{job: job, worker: w}
	}
}

// wait returns when every helper started by start has finished.
func (p *workerPool) wait() { p.done.Wait() }

// stop ends the helpers; the simulation's cleanup calls it when the simulation is collected. It
// may be called more than once.
func (p *workerPool) stop() { p.stopOnce.Do(func() { close(p.quit) }) }
