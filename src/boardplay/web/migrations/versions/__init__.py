"""One module per schema revision: release 0.1.0's schema as one baseline (0011), then each
revision since, oldest first."""
