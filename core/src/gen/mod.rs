//! Random test-case generation (being written).
