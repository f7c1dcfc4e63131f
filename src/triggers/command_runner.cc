#include "triggers/command_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>

extern char** environ;

namespace monotable::triggers {
namespace {

constexpr size_t kMaxOutput = 6 * 1024 * 1024;
constexpr size_t kStderrTail = 4096;

// Passes a chunk of the handler's stderr through to the server's and keeps its last bytes.
void PassStderr(const char* data, size_t n, std::string& tail) {
  for (size_t done = 0; done < n;) {
    ssize_t w = write(2, data + done, n - done);
    if (w <= 0 && errno != EINTR) break;
    if (w > 0) done += static_cast<size_t>(w);
  }
  tail.append(data, n);
  if (tail.size() > kStderrTail) tail.erase(0, tail.size() - kStderrTail);
}

// Reads what the pipe holds now (non-blocking); closes it at its end. False once closed.
bool DrainStderr(int& fd, std::string& tail) {
  char buf[4096];
  while (fd >= 0) {
    ssize_t r = read(fd, buf, sizeof buf);
    if (r > 0) {
      PassStderr(buf, static_cast<size_t>(r), tail);
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else {
      if (r == 0 || errno != EAGAIN) {
        close(fd);
        fd = -1;
      }
      break;
    }
  }
  return fd >= 0;
}

std::vector<std::string> MergedEnvironment(const std::vector<std::string>& extra) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string_view s(*e);
    auto eq = s.find('=');
    if (eq != std::string_view::npos) vars[std::string(s.substr(0, eq))] = std::string(s);
  }
  for (const auto& s : extra) {
    auto eq = s.find('=');
    if (eq != std::string::npos) vars[s.substr(0, eq)] = s;
  }
  std::vector<std::string> out;
  for (auto& [k, v] : vars) out.push_back(std::move(v));
  return out;
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         std::string_view input, int timeout_ms, std::stop_token stop) {
  CommandResult result;
  if (argv.empty()) {
    result.error = "empty command";
    return result;
  }
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    close(in_pipe[0]);
    close(in_pipe[1]);
    return result;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  // SIGPIPE and SIGHUP are ignored in the server; the handler gets the defaults back.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGHUP);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> env_strings = MergedEnvironment(env);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (auto& s : args) argp.push_back(s.data());
  argp.push_back(nullptr);

  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argp[0], &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    result.error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return result;
  }
  result.started = true;
  // A handler that exits without reading all of its stdin must not SIGPIPE the server: SIGPIPE is
  // blocked in this thread while writing, and a pending one is consumed before unblocking.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
  fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
  int in_fd = in_pipe[1];
  int out_fd = out_pipe[0];
  int err_fd = err_pipe[0];
  size_t written = 0;
  if (input.empty()) {
    close(in_fd);
    in_fd = -1;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[65536];
  while (out_fd >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || stop.stop_requested()) {
      result.timed_out = true;
      break;
    }
    pollfd fds[3];
    int n = 0;
    fds[n++] = {out_fd, POLLIN, 0};
    fds[n++] = {err_fd, POLLIN, 0};  // -1 once closed: poll skips it
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    int ready = poll(fds, n, static_cast<int>(std::min<int64_t>(left.count(), 100)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) DrainStderr(err_fd, result.error_output);
    if (in_fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(in_fd, input.data() + written, input.size() - written);
      if (w > 0) written += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) {
        close(in_fd);  // the handler stopped reading (EPIPE) or everything is written
        in_fd = -1;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t r = read(out_fd, buf, sizeof buf);
      if (r > 0) {
        result.output.append(buf, static_cast<size_t>(r));
        if (result.output.size() > kMaxOutput) {
          result.output_too_large = true;
          break;
        }
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        close(out_fd);
        out_fd = -1;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
  if (out_fd >= 0) close(out_fd);
  if (!sigismember(&old_set, SIGPIPE)) {
    timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  }
  int status = 0;
  if (result.timed_out || result.output_too_large) {
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
  } else {
    // stdout closed: wait for the exit, within what is left of the time limit.
    while (true) {
      pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) break;
      if (w < 0 && errno != EINTR) break;
      if (std::chrono::steady_clock::now() >= deadline || stop.stop_requested()) {
        result.timed_out = true;
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        break;
      }
      DrainStderr(err_fd, result.error_output);
      usleep(2000);
    }
  }
  // What the handler wrote to stderr before it exited (a process it left behind may hold the
  // pipe open: only what is there now is read).
  DrainStderr(err_fd, result.error_output);
  if (err_fd >= 0) close(err_fd);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace monotable::triggers
