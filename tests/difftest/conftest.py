"""Options of the differential test (tests/difftest/test_difftest.py)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_addoption(parser):
    parser.addoption("--monotable-binary", default=os.path.join(ROOT, "build", "monotable"))
