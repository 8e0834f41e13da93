"""Test helpers shared across test areas (scripted servers, fixtures)."""
