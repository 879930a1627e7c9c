"""What the `numbat` command runs besides the notebook: the benchmarks and the demo."""
