"""bench/clients/cf_jobs.py - runs ClusterFuzz's libFuzzer engine
(clusterfuzz._internal.bot.fuzzers.libFuzzer.engine, unmodified) on one
target, one job after another, and prints one line per job: JOB<TAB>VERDICT.
The verdict is what ClusterFuzz decides from the run (crash found or not,
crash type and state from its stack analyzer, artifacts, stats); numbers
that may differ between engines come after a ';'.

  python3 cf_jobs.py CLUSTERFUZZ_SRC TARGET INPUTS_DIR WORK_DIR FUZZ_SECONDS [plain]

INPUTS_DIR holds seeds/, crash, hang, oom, leak, abrt, segv
(bench/clients.sh makes them).  With `plain` (a TARGET built without a
sanitizer) only the reproductions of abrt and segv run: what libFuzzer's
own signal handler prints, symbolized, is all the analyzer gets.  Imports the engine never needs on these jobs are stood in for by
cf_stubs.py."""
import os
import shutil
import sys
import traceback

cf_src, target, inputs, work, secs = sys.argv[1:6]
secs = int(secs)
plain = sys.argv[6:7] == ['plain']
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, cf_src)
import cf_stubs  # noqa: E402

# The generated protos need the real protobuf runtime: always stood in for.
cf_stubs.install(['google.cloud', 'google.protobuf', 'google.api_core', 'google.auth',
                  'googleapiclient', 'aiohttp', 'httplib2', 'apiclient', 'oauth2client',
                  'google_auth_httplib2', 'jira', 'psutil', 'grpc', 'yaml', 'requests',
                  'redis', 'pytz', 'pymongo'], always=['clusterfuzz._internal.protos'])
print('stood in for: %s' % ' '.join(sorted(cf_stubs.STUB)), file=sys.stderr)

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
for d in ('bot', 'bot/tmp', 'fuzz-inputs', 'fuzz-inputs-disk', 'reproducers', 'corpus',
          'build'):
    os.makedirs(os.path.join(work, d), exist_ok=True)
env = {
    'ROOT_DIR': work,
    'BOT_TMPDIR': os.path.join(work, 'bot/tmp'),
    'FUZZ_INPUTS': os.path.join(work, 'fuzz-inputs'),
    'FUZZ_INPUTS_DISK': os.path.join(work, 'fuzz-inputs-disk'),
    'JOB_NAME': 'libfuzzer_asan_zlib',
    'FUZZ_TARGET': 'zc',
    'FAIL_RETRIES': '1',
    'LOG_TO_FILE': 'False',
    'LOG_TO_GCP': 'False',
    'CONFIG_DIR_OVERRIDE': os.path.join(os.path.dirname(cf_src), 'configs', 'test'),
    'BUILD_DIR': os.path.dirname(target),
    'APP_DIR': os.path.dirname(target),
}
os.environ.update(env)

from clusterfuzz._internal.bot.fuzzers.libFuzzer import engine as lf_engine  # noqa: E402
from clusterfuzz._internal.system import environment  # noqa: E402

environment.set_bot_environment = lambda: None
eng = lf_engine.Engine()
# No random fuzzing strategies (fork mode, value profile, corpus subsets...):
# both builds get the same command line, and fork mode's clean-exit margin
# would exceed a short fuzzing time.
eng.do_strategies = False


def say(job, verdict):
    print('%s\t%s' % (job, verdict), flush=True)


def analyze(output):
    """ClusterFuzz's stack analyzer on a run's output: type and state."""
    try:
        from clusterfuzz._internal.crash_analysis.stack_parsing import stack_analyzer
        st = stack_analyzer.get_crash_data(output, symbolize_flag=False)
        state = ' / '.join(x for x in st.crash_state.split('\n') if x)
        return '%s [%s]' % (st.crash_type.replace('\n', ' '), state)
    except Exception as e:  # pylint: disable=broad-except
        return 'analyzer failed: %r' % e


def job(name):
    def wrap(fn):
        try:
            say(name, fn())
        except Exception:  # pylint: disable=broad-except
            sys.stderr.write('job %s:\n%s\n' % (name, traceback.format_exc()))
            say(name, 'ERROR (%s)' % traceback.format_exc().strip().splitlines()[-1][:60])
    return wrap


corpus = os.path.join(work, 'corpus')
for f in os.listdir(os.path.join(inputs, 'seeds')):
    shutil.copy(os.path.join(inputs, 'seeds', f), corpus)
repro = os.path.join(work, 'reproducers')
crash_file = os.path.join(inputs, 'crash')
found = {}


def reproduce(name, path, args, triggers=False):
    @job(name)
    def _r():
        if triggers:
            os.environ['ZC_TRIGGERS'] = '1'
        try:
            res = eng.reproduce(target, path, args, 120)
        finally:
            os.environ.pop('ZC_TRIGGERS', None)
        out = res.output or ''
        open(os.path.join(work, name.replace(' ', '_') + '.log'), 'w').write(out)
        return 'exit %s, %s; %.1fs' % (res.return_code, analyze(out), res.time_executed)


if plain:
    # The verdict is the crash state (how ClusterFuzz groups the bug); the
    # exit code and crash type come after the ';': clang's -fsanitize=fuzzer
    # links UBSan's runtime, whose own SEGV report (exit 1, a Null-deref
    # type) stands where libFuzzer's and fz's deadly signal (77,
    # Fatal-signal) do.
    for k in ('abrt', 'segv'):
        @job('reproduce %s (no sanitizer)' % k)
        def _p():
            os.environ['ZC_TRIGGERS'] = '1'
            try:
                res = eng.reproduce(target, os.path.join(inputs, k),
                                    ['-rss_limit_mb=2560', '-timeout=60'], 120)
            finally:
                os.environ.pop('ZC_TRIGGERS', None)
            out = res.output or ''
            open(os.path.join(work, 'reproduce-%s-plain.log' % k), 'w').write(out)
            t = analyze(out)
            state = t[t.index('['):] if '[' in t else t
            return '%s, state %s; exit %s, %s' % ('crash' if res.return_code else 'no crash',
                                                  state, res.return_code, t[:t.find(' [')])
    sys.exit(0)


@job('fuzz')
def _fuzz():
    opts = eng.prepare(corpus, target, os.path.dirname(target))
    # A fixed seed, no random strategies beyond ClusterFuzz's own choice.
    opts.arguments = [a for a in opts.arguments if not a.startswith('-seed=')] + ['-seed=1']
    res = eng.fuzz(target, opts, repro, secs)
    open(os.path.join(work, 'fuzz.log'), 'w').write(res.logs or '')
    st = res.stats
    v = 'crash found' if res.crashes else 'no crash'
    if res.crashes:
        c = res.crashes[0]
        found['crash'] = c.input_path
        v += ' (%s)' % ('artifact' if os.path.getsize(c.input_path) else 'EMPTY testcase')
        v += ', ' + analyze(res.logs)
    edges = st.get('edges_total', 0)
    v += ', edges_total %s' % ('>0' if edges else '0')
    return '%s; edges_total=%s cov=%s ft=%s units=%s new_edges=%s' % (
        v, edges, st.get('edge_coverage'), st.get('feature_coverage'),
        st.get('new_units_added'), st.get('new_edges'))


@job('two-step merge supported')
def _two_step():
    return 'yes' if lf_engine._is_multistep_merge_supported(target) else 'no'


reproduce('reproduce crash', crash_file, ['-rss_limit_mb=2560', '-timeout=60'])
reproduce('reproduce timeout', os.path.join(inputs, 'hang'), ['-rss_limit_mb=2560', '-timeout=3'],
          True)
reproduce('reproduce oom', os.path.join(inputs, 'oom'), ['-rss_limit_mb=2560', '-timeout=60'], True)
reproduce('reproduce leak', os.path.join(inputs, 'leak'), ['-rss_limit_mb=2560', '-timeout=60'],
          True)
reproduce('reproduce abort', os.path.join(inputs, 'abrt'), ['-rss_limit_mb=2560', '-timeout=60'],
          True)


@job('minimize_corpus (single step)')
def _mc():
    out = os.path.join(work, 'merged')
    os.makedirs(out, exist_ok=True)
    res = eng.minimize_corpus(target, [], [os.path.join(inputs, 'seeds')], out, repro, 120)
    n = len(os.listdir(out))
    return '%s files kept, edge_coverage %s; %s' % ('some' if n else 'no', '>0' if res.stats.get(
        'edge_coverage') else '0', res.stats)


@job('minimize_corpus (two-step)')
def _mc2():
    out = os.path.join(work, 'merged2')
    new = os.path.join(work, 'new-units')
    os.makedirs(out, exist_ok=True)
    os.makedirs(new, exist_ok=True)
    shutil.copy(crash_file, os.path.join(new, 'crashing-unit'))
    shutil.copy(os.path.join(inputs, 'seeds', 'seed0'), os.path.join(new, 'dup'))
    seeds1 = os.path.join(work, 'seeds1')
    shutil.copytree(os.path.join(inputs, 'seeds'), seeds1)
    os.remove(os.path.join(seeds1, 'seed2'))
    shutil.copy(os.path.join(inputs, 'seeds', 'seed2'), os.path.join(new, 'seed2'))
    res = eng._minimize_corpus_two_step(target, [], [seeds1], new, out, repro, 120)
    s = res.stats
    return 'new_edges %s, new_features %s; %s' % ('>0' if s.get('new_edges', 0) > 0 else '0',
                                                   '>0' if s.get('new_features', 0) > 0 else '0',
                                                   s)


@job('minimize_testcase')
def _mt():
    out = os.path.join(work, 'minimized')
    src = found.get('crash') or crash_file
    res = eng.minimize_testcase(target, ['-runs=2000'], src, out, 120)
    if not os.path.exists(out):
        return 'no output'
    data = open(out, 'rb').read()
    r = eng.reproduce(target, out, ['-timeout=60'], 60)
    return 'output written, still crashes: %s; %d -> %d bytes' % (
        'yes' if r.return_code != 0 and 'heap-buffer-overflow' in (r.output or '') else 'no',
        os.path.getsize(src), len(data))


@job('cleanse')
def _cl():
    out = os.path.join(work, 'cleansed')
    res = eng.cleanse(target, [], crash_file, out, 120)
    if not os.path.exists(out):
        return 'no output'
    r = eng.reproduce(target, out, ['-timeout=60'], 60)
    a, b = open(crash_file, 'rb').read(), open(out, 'rb').read()
    return 'output written, still crashes: %s; %d bytes changed' % (
        'yes' if r.return_code != 0 and 'heap-buffer-overflow' in (r.output or '') else 'no',
        sum(x != y for x, y in zip(a, b)))
