"""The trust boundary of ``course grade``: everything that runs, confines or talks to a student's code.

- :mod:`.policy` (what the jail shows and how it limits), :mod:`.jail` (mounts, namespaces),
  :mod:`.container` (the jail where no namespace can be made: Gradescope's containers),
  :mod:`.seccomp` (the filters a student's process installs on itself: no new socket, thread or process,
  nothing done to another process),
  :mod:`.compilers` (TorchScript and ``torch.compile`` refused in the student's process),
  :mod:`.limits` (time, memory, processes, the job slots' control groups);
- :mod:`.student_server` (the jailed zygote and the student's process), :mod:`.calls` (the frames
  that cross between it and the worker), :mod:`.worker` (the trusted process that grades),
  :mod:`.messages` (the schemas of every file that crosses a process boundary);
- :mod:`.seeds` (the course secret and the hidden inputs' seeds), :mod:`.trace` (what executes: the
  operators of every hidden call, the modules the notebook loads and the programs it starts),
  :mod:`.shortcuts` (forbidden routes, by source and by what executes), :mod:`.replay` (a run's outputs
  handed to nbgrader), :mod:`.scratch_course` (the scratch course a batch grades in).

Invariants, which every change here keeps:

1. Student code is hostile and sees nothing of the instructor's: the course folder, the answer keys,
   other submissions, the output folder, the course secret and the instructor's environment are
   hidden by the jail; its environment is the policy's alone.
2. It cannot change what decides points: the canonical notebook rebuilds the release around the
   student's answer cells; every verdict is computed in the worker from plain data (tensors,
   numbers, strings, nested containers of bounded depth and size) that the student's process
   returned; no verdict, report or driver result made in the student's process is believed.
3. It is limited from outside: time, memory, processes, output and file size are enforced by the
   kernel (rlimits, cgroups, seccomp), never by the student's process; it runs in one thread, which the
   operator trace watches (no thread or process can start once its code may run), acting on no other process
   (no limit, scheduling, signal or memory of another: the zygote that forks every submission's process runs as
   the same user in the namespace jail, and a limit lowered there was every later process's), with no compiler of
   torch's (:mod:`.compilers`), and everything it runs for a hidden call (the call, its backward pass, the
   reading of what it returned, by exact types) runs inside that trace and the part's guard.
4. Hidden inputs are unpredictable without the course secret (:mod:`.seeds`), and the same notebook
   always gets the same inputs; nothing a hidden call returned or raised reaches the student's
   feedback except values the worker formats itself (shapes, errors, which case): a few numbers a
   failing part, which the student's code can choose, about inputs no other version of the notebook gets.
5. A fault of the grader is "not graded", never a grade; a failure after the student's code ran is
   the student's, and a hidden check's failure only where the answer key passes the same inputs
   (the worker's control run; where the student's call raised, in a jailed process of the key's own too, so
   that a request the jail cannot serve is never the student's). One broken or hostile submission never stops the batch.
6. Nothing reaches a part's hidden check but its own code: it runs in a fresh student process that has run the
   notebook's cells as the first process ran them and nothing else (no other part's tests ran there), on the
   grader's time, bounded per part; two submissions
   graded at once cannot reach each other (their own namespaces, or, in the container jail, a user per job slot).

Only this folder touches namespaces, mounts, rlimits or ``ctypes`` (tests/test_modules.py checks it).
"""

__all__: list[str] = []
