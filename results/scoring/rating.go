package scoring

import "math"

// bradleyTerry fits the strengths θ of the Bradley–Terry model, where i beats
// j with probability σ(θi − θj), to score[i][j] (i's wins over j, draws
// counting half) out of played[i][j] results, and returns θ with its
// standard errors.
//
// Alone, the model has no finite maximum for a bot that never lost (or never
// won) and leaves θ defined only up to a constant. Both are fixed the same
// way: every bot also gets one virtual draw against a reference bot of
// strength 0. That pulls each θ towards 0 by one game's worth of evidence,
// keeps every θ finite, and at the optimum makes the bots' mean expected
// score against the reference exactly ½, so the scale is centred on an
// average bot. The errors are the square roots of the diagonal of the
// inverse observed information, with the reference fixed.
//
// The log-likelihood is strictly concave, so Newton's method with step
// halving converges from θ = 0.
func bradleyTerry(score, played [][]float64) (theta, se []float64) {
	n := len(score)
	theta = make([]float64, n)
	ll := logLikelihood(theta, score, played)
	grad := make([]float64, n)
	info := square(n)
	next := make([]float64, n)
	for range 100 {
		information(theta, played, info)
		for i := range n {
			grad[i] = 0.5 - sigmoid(theta[i])
			for j := range n {
				if played[i][j] > 0 {
					grad[i] += score[i][j] - played[i][j]*sigmoid(theta[i]-theta[j])
				}
			}
		}
		step := choleskySolve(info, grad)
		size := 0.0 // of the accepted step; 0 when none improves
		for t := 1.0; t > 1e-12; t /= 2 {
			for i := range n {
				next[i] = theta[i] + t*step[i]
			}
			if l := logLikelihood(next, score, played); l >= ll {
				ll = l
				size = t * maxAbs(step)
				copy(theta, next)
				break
			}
		}
		if size < 1e-10 {
			break
		}
	}
	information(theta, played, info)
	se = choleskyInverseDiagonal(info)
	for i := range se {
		se[i] = math.Sqrt(se[i])
	}
	return theta, se
}

// logLikelihood includes the virtual draws against the reference.
func logLikelihood(theta []float64, score, played [][]float64) float64 {
	ll := 0.0
	for i := range theta {
		ll += 0.5*logSigmoid(theta[i]) + 0.5*logSigmoid(-theta[i])
		for j := range theta {
			if score[i][j] > 0 {
				ll += score[i][j] * logSigmoid(theta[i]-theta[j])
			}
		}
	}
	return ll
}

// information fills m with the observed information (minus the Hessian of
// the log-likelihood) at theta. It is positive definite thanks to the
// virtual games against the reference.
func information(theta []float64, played, m [][]float64) {
	for i := range theta {
		p := sigmoid(theta[i])
		m[i][i] = p * (1 - p)
		for j := range theta {
			if j == i {
				continue
			}
			m[i][j] = 0
			if played[i][j] > 0 {
				p := sigmoid(theta[i] - theta[j])
				w := played[i][j] * p * (1 - p)
				m[i][i] += w
				m[i][j] = -w
			}
		}
	}
}

func sigmoid(x float64) float64 {
	return 1 / (1 + math.Exp(-x))
}

// logSigmoid is log σ(x) without overflow for large |x|.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

// cholesky returns L with a = L·Lᵀ for a symmetric positive definite a.
func cholesky(a [][]float64) [][]float64 {
	n := len(a)
	l := square(n)
	for i := range n {
		for j := 0; j <= i; j++ {
			sum := a[i][j]
			for k := range j {
				sum -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(max(sum, 1e-300))
			} else {
				l[i][j] = sum / l[j][j]
			}
		}
	}
	return l
}

// choleskySolve solves a·x = b.
func choleskySolve(a [][]float64, b []float64) []float64 {
	l := cholesky(a)
	n := len(b)
	x := make([]float64, n)
	for i := range n {
		sum := b[i]
		for k := range i {
			sum -= l[i][k] * x[k]
		}
		x[i] = sum / l[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		sum := x[i]
		for k := i + 1; k < n; k++ {
			sum -= l[k][i] * x[k]
		}
		x[i] = sum / l[i][i]
	}
	return x
}

// choleskyInverseDiagonal returns the diagonal of a⁻¹: with a = L·Lᵀ,
// (a⁻¹)ii is the squared norm of column i of L⁻¹.
func choleskyInverseDiagonal(a [][]float64) []float64 {
	l := cholesky(a)
	n := len(a)
	diag := make([]float64, n)
	col := make([]float64, n)
	for i := range n {
		// Column i of L⁻¹: solve L·c = eᵢ; c is zero above i.
		for r := range n {
			col[r] = 0
		}
		col[i] = 1 / l[i][i]
		for r := i + 1; r < n; r++ {
			sum := 0.0
			for k := i; k < r; k++ {
				sum -= l[r][k] * col[k]
			}
			col[r] = sum / l[r][r]
		}
		for r := i; r < n; r++ {
			diag[i] += col[r] * col[r]
		}
	}
	return diag
}

func square(n int) [][]float64 {
	cells := make([]float64, n*n)
	m := make([][]float64, n)
	for i := range m {
		m[i] = cells[i*n : (i+1)*n]
	}
	return m
}
