"""Model side of E8's decomposition: per variant, the small-writes threads'
mean CPU, CPU wait, lock wait and the rest of their runtime, and the
context switches a write, simulated with profile PROFILE."""
import json, os, subprocess, sys, tempfile
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
prof = sys.argv[1]
names = sys.argv[2:]
print(f"{'variant':36} {'time s':>7} {'cpu':>6} {'cpuwait':>8} {'lock':>7} {'other':>7} {'ctxsw/w':>8} {'pages written':>13}")
for n in names:
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(f"[scenario]\ninclude = {TOP}/lab/workloads/{n}.ini\ninclude = {prof}\n")
    out = subprocess.run([f"{TOP}/build/sim/sim-writeback", "--output-format=json", f.name],
                         capture_output=True, text=True, cwd=f"{TOP}/lab/workloads")
    os.unlink(f.name)
    if out.returncode:
        print(n, out.stderr.strip()); continue
    w = json.loads(out.stdout)["wbsim"]
    small = [j for j in w["jobs"] if j["name"].startswith("small")]
    if not small:
        small = w["jobs"][1:]
    k = len(small)
    rt = max(j["runtime_ns"] for j in small) / 1e9
    m = lambda key: sum(j[key] for j in small) / k / 1e9
    cpu, cw, lw = m("cpu_ns"), m("cpu_wait_ns"), m("lock_wait_ns")
    other = sum(j["runtime_ns"] for j in small) / k / 1e9 - cpu - cw - lw
    cs = sum(j["nvcsw"] + j["nivcsw"] for j in small) / max(sum(j["total_ios"] for j in small), 1)
    print(f"{n:36} {rt:7.3f} {cpu:6.3f} {cw:8.3f} {lw:7.3f} {other:7.3f} {cs:8.4f} {w['nr_written']:13}")
