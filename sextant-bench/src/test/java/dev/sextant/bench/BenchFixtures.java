package dev.sextant.bench;

/** Outcomes the report and target tests build their runs from. */
final class BenchFixtures {

    private BenchFixtures() {
    }

    /** A throughput run that read all 1,000,000 commits of 1,000 groups at {@code perSec}. */
    static ThroughputScenario.Outcome throughput(int threads, double perSec) {
        ThroughputScenario.Outcome o = new ThroughputScenario.Outcome();
        o.threads = threads;
        o.groups = 1000;
        o.commits = 1_000_000;
        o.reached = 1_000_000;
        o.readSeconds = 1_000_000 / perSec;
        o.overallCommitsPerSec = perSec;
        return o;
    }
}
