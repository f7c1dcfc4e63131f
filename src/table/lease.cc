#include "table/lease.h"

#include <random>

#include "changelog/keys.h"
#include "model/item_codec.h"

namespace monotable::table {
namespace {

constexpr engine::PartitionRef kSystemPartition{kSystemKeyPrefix, ""};
constexpr size_t kHolderBytes = 16;

std::string NewHolderId() {
  std::random_device device;
  std::mt19937_64 rng((static_cast<uint64_t>(device()) << 32) ^ device());
  std::string id;
  AppendBigEndian64(rng(), id);
  AppendBigEndian64(rng(), id);
  return id;
}

}  // namespace

Lease::Lease(engine::PartitionStore& store, std::string name, int64_t duration_ms, Clock clock)
    : store_(store), key_("L" + std::move(name)), holder_(NewHolderId()), duration_ms_(duration_ms),
      clock_(std::move(clock)) {}

Result<bool> Lease::TryHold() {
  MT_ASSIGN_OR_RETURN(auto record, store_.Get(kSystemPartition, key_));
  const int64_t now = clock_();
  if (record && record->size() == kHolderBytes + 8) {
    const bool ours = record->compare(0, kHolderBytes, holder_) == 0;
    const auto until = static_cast<int64_t>(ReadBigEndian(std::string_view(*record).substr(kHolderBytes)));
    if (!ours && until > now) return false;  // another server's hold lasts
  }
  std::string renewed = holder_;
  AppendBigEndian64(static_cast<uint64_t>(now + duration_ms_), renewed);
  engine::PartitionWrite write;
  write.guards.push_back({key_, record});
  write.mutations.push_back({key_, std::move(renewed)});
  auto committed = store_.Commit(kSystemPartition, std::move(write));
  if (committed.status().code() == ErrorCode::kGuardFailed) return false;  // another server moved first
  MT_RETURN_IF_ERROR(committed.status());
  return true;
}

}  // namespace monotable::table
