// The dispatcher against an in-memory database: batching, ordering, filters, checkpoints and
// restarts, LATEST, retries with bisecting, partial batch responses, the on-failure destination
// and record age.
#include "triggers/dispatcher.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <rapidjson/document.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "streams/stream_reader.h"

namespace monotable::triggers {
namespace {

using table::Database;

class DispatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mt-triggers-" + std::to_string(getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    db_ = std::make_unique<Database>(engine::NewMemoryEngine(), [this] { return now_.load(); });
    ASSERT_TRUE(db_->catalog().Load().ok());
    CreateTable("t", true);
  }
  void TearDown() override {
    dispatcher_.reset();
    std::filesystem::remove_all(dir_);
  }

  void CreateTable(const std::string& name, bool stream) {
    TableDescription t;
    t.name = name;
    t.attribute_definitions = {{"pk", AttrType::kS}};
    t.key_schema = {{"pk", KeyRole::kHash}};
    if (stream) t.stream = {true, "NEW_AND_OLD_IMAGES", "2024-01-01T00:00:00.000", 0};
    ASSERT_TRUE(db_->catalog().Create(t).ok());
  }

  void Put(const std::string& pk, const std::string& kind = "book") {
    auto table = db_->catalog().Find("t");
    Item item{{"pk", AttributeValue::S(pk)}, {"kind", AttributeValue::S(kind)}};
    auto put = [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); };
    ASSERT_TRUE(db_->Write(*table, item, put).ok());
  }

  // A handler that appends each event to events.jsonl; it fails (exit 1) whenever the batch holds
  // the key `poison`.
  TriggerConfig Config(const std::string& poison = "") {
    TriggerConfig c;
    c.name = "trig";
    c.table = "t";
    std::string script = "e=$(cat); printf '%s\\n' \"$e\" >> " + (dir_ / "events.jsonl").string() + ";";
    if (!poison.empty()) script += " case \"$e\" in *'\"" + poison + "\"'*) exit 1;; esac;";
    script += " exit 0";
    c.command = {"/bin/sh", "-c", script};
    c.starting_position = StartingPosition::kTrimHorizon;
    c.batch_size = 3;
    return c;
  }

  void Start(std::vector<TriggerConfig> configs) {
    DispatcherOptions options;
    options.poll_ms = 10;
    options.backoff_initial_ms = 5;
    options.backoff_max_ms = 20;
    dispatcher_ = std::make_unique<Dispatcher>(*db_, checkpoints_, options);
    dispatcher_->Apply(std::move(configs));
  }

  // Batches delivered so far: the keys of each event, in order.
  std::vector<std::vector<std::string>> Batches() {
    std::vector<std::vector<std::string>> out;
    std::ifstream in(dir_ / "events.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      rapidjson::Document doc;
      doc.Parse(line.c_str());
      if (doc.HasParseError()) continue;
      std::vector<std::string> keys;
      for (const auto& r : doc["Records"].GetArray()) keys.emplace_back(r["dynamodb"]["Keys"]["pk"]["S"].GetString());
      out.push_back(keys);
    }
    return out;
  }

  template <typename F>
  bool WaitFor(F done) {
    for (int i = 0; i < 1000; ++i) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
  }

  std::shared_ptr<TriggerStats> Stats() { return dispatcher_->Stats().at(0); }

  std::filesystem::path dir_;
  std::atomic<int64_t> now_{1'700'000'000'000};
  std::unique_ptr<Database> db_;
  MemoryCheckpointStore checkpoints_;
  std::unique_ptr<Dispatcher> dispatcher_;
};

using BatchList = std::vector<std::vector<std::string>>;

TEST_F(DispatcherTest, DeliversInOrderInBatchesAndCheckpoints) {
  for (auto k : {"a", "b", "c", "d", "e"}) Put(k);
  Start({Config()});
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 5; }));
  EXPECT_EQ(Batches(), (BatchList{{"a", "b", "c"}, {"d", "e"}}));
  auto stream = db_->streams().List().at(0);
  std::string shard = streams::ShardId(stream->info());
  EXPECT_EQ(checkpoints_.Load("trig", shard), stream->sequences().Watermark() + 1);
  EXPECT_EQ(Stats()->LagRecords(), 0);
  // The event is Lambda's: source ARN, version, images.
  std::ifstream in(dir_ / "events.jsonl");
  std::string line;
  std::getline(in, line);
  rapidjson::Document doc;
  doc.Parse(line.c_str());
  const auto& r = doc["Records"][0];
  EXPECT_STREQ(r["eventSourceARN"].GetString(),
               "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2024-01-01T00:00:00.000");
  EXPECT_STREQ(r["eventName"].GetString(), "INSERT");
  EXPECT_STREQ(r["dynamodb"]["NewImage"]["kind"]["S"].GetString(), "book");
  EXPECT_EQ(r["dynamodb"]["ApproximateCreationDateTime"].GetInt64(), 1'700'000'000);
  // New writes keep flowing.
  Put("f");
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 6; }));
  EXPECT_EQ(Batches().back(), (std::vector<std::string>{"f"}));
  std::string metrics = dispatcher_->RenderMetrics();
  EXPECT_NE(metrics.find("monotable_trigger_records_delivered_total{trigger=\"trig\",table=\"t\"} 6"),
            std::string::npos)
      << metrics;
}

TEST_F(DispatcherTest, RestartResumesAfterTheLastAcknowledgedBatch) {
  for (auto k : {"a", "b", "c", "d"}) Put(k);
  Start({Config()});
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 4; }));
  dispatcher_.reset();
  Put("e");
  Start({Config()});
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 1; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(Batches(), (BatchList{{"a", "b", "c"}, {"d"}, {"e"}}));
}

TEST_F(DispatcherTest, LatestSkipsRecordsWrittenBeforeTheTriggerStarted) {
  for (auto k : {"a", "b"}) Put(k);
  auto c = Config();
  c.starting_position = StartingPosition::kLatest;
  Start({c});
  ASSERT_TRUE(WaitFor([&] { return Stats()->state() == "idle"; }));
  Put("c");
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 1; }));
  EXPECT_EQ(Batches(), (BatchList{{"c"}}));
}

TEST_F(DispatcherTest, BatchingWindowWaitsForAFullBatchButNoLonger) {
  // Without a window a lone record goes at once; with one, a partial batch waits for more records
  // up to the window, a full batch goes as soon as it is full, and a partial one goes when the
  // window closes.
  auto c = Config();
  c.batching_window_s = 1;
  Start({c});
  ASSERT_TRUE(WaitFor([&] { return Stats()->state() == "idle"; }));
  auto started = std::chrono::steady_clock::now();
  Put("a");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(Stats()->invocations.load(), 0u);  // waiting inside the window
  Put("b");
  Put("c");  // the batch (3) is full: delivered before the window ends
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 3; }));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(950));
  started = std::chrono::steady_clock::now();
  Put("d");
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 4; }));
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(900));  // the window ran out
  EXPECT_EQ(Batches(), (BatchList{{"a", "b", "c"}, {"d"}}));
}

TEST_F(DispatcherTest, FiltersDropRecordsUnseen) {
  auto c = Config();
  auto pattern = FilterPattern::Compile(R"({"dynamodb": {"NewImage": {"kind": {"S": ["author"]}}}})");
  ASSERT_TRUE(pattern.ok());
  c.filters = {pattern.value()};
  Put("b1");
  Put("a1", "author");
  Put("b2");
  Put("a2", "author");
  Start({c});
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 2 && Stats()->records_filtered.load() == 2; }));
  EXPECT_EQ(Batches(), (BatchList{{"a1", "a2"}}));
  ASSERT_TRUE(WaitFor([&] { return Stats()->LagRecords() == 0; }));
}

TEST_F(DispatcherTest, BisectsAndSendsThePoisonRecordToTheDestination) {
  auto c = Config("p");
  c.batch_size = 4;
  c.bisect_on_error = true;
  c.max_retry_attempts = 1;
  c.on_failure = {Destination::Kind::kFile, (dir_ / "failed.jsonl").string()};
  for (auto k : {"a", "p", "c", "d"}) Put(k);
  Start({c});
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 3 && Stats()->records_failed.load() == 1; }));
  // [a p c d] fails -> [a p] fails -> [a] ok, [p] fails twice (one retry) -> destination, [c d] ok.
  EXPECT_EQ(Batches(), (BatchList{{"a", "p", "c", "d"}, {"a", "p"}, {"a"}, {"p"}, {"p"}, {"c", "d"}}));
  std::ifstream in(dir_ / "failed.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  rapidjson::Document doc;
  doc.Parse(line.c_str());
  ASSERT_FALSE(doc.HasParseError());
  EXPECT_STREQ(doc["requestContext"]["condition"].GetString(), "RetryAttemptsExhausted");
  EXPECT_EQ(doc["requestContext"]["approximateInvokeCount"].GetInt(), 2);
  EXPECT_EQ(doc["DDBStreamBatchInfo"]["batchSize"].GetInt(), 1);
  EXPECT_EQ(doc["DDBStreamBatchInfo"]["startSequenceNumber"], doc["DDBStreamBatchInfo"]["endSequenceNumber"]);
  EXPECT_STREQ(doc["payload"]["Records"][0]["dynamodb"]["Keys"]["pk"]["S"].GetString(), "p");
  EXPECT_FALSE(std::getline(in, line));
  EXPECT_EQ(Stats()->batches_bisected.load(), 2u);
}

TEST_F(DispatcherTest, PartialBatchResponseRetriesFromTheFirstFailedRecord) {
  auto c = Config();
  c.batch_size = 4;
  c.report_batch_item_failures = true;
  // Reports the record with key "c" as failed the first time it sees it.
  std::string marker = (dir_ / "seen").string();
  c.command = {
      "/usr/bin/python3", "-c",
      "import json,sys,os\n"
      "e=json.load(sys.stdin)\n"
      "open('" +
          (dir_ / "events.jsonl").string() +
          "','a').write(json.dumps(e)+'\\n')\n"
          "f=[r['dynamodb']['SequenceNumber'] for r in e['Records'] if r['dynamodb']['Keys']['pk']['S']=='c']\n"
          "if f and not os.path.exists('" +
          marker +
          "'):\n"
          "  open('" +
          marker + "','w').close(); print(json.dumps({'batchItemFailures':[{'itemIdentifier':f[0]}]}))\n"};
  for (auto k : {"a", "b", "c", "d", "e"}) Put(k);
  c.batch_size = 5;
  c.bisect_on_error = true;  // split at the reported record, not halved
  Start({c});
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 5; }));
  EXPECT_EQ(Batches(), (BatchList{{"a", "b", "c", "d", "e"}, {"c", "d", "e"}}));
  EXPECT_EQ(Stats()->invocation_errors.load(), 1u);
  EXPECT_EQ(Stats()->batches_bisected.load(), 0u);
}

TEST_F(DispatcherTest, RecordsPastTheirAgeGoToTheDestination) {
  CreateTable("failures", false);
  auto c = Config("x");
  c.max_record_age_s = 60;
  c.on_failure = {Destination::Kind::kTable, "failures"};
  Put("x");
  Start({c});
  ASSERT_TRUE(WaitFor([&] { return Stats()->invocation_errors.load() >= 2; }));
  now_ += 61'000;
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_failed.load() == 1; }));
  auto table = db_->catalog().Find("failures");
  auto stream = db_->streams().List().at(0);
  uint64_t seq = stream->sequences().Watermark();
  Item key{{"pk", AttributeValue::S("trig#" + streams::FormatSequenceNumber(seq))}};
  auto item = db_->GetItem(*table, key);
  ASSERT_TRUE(item.ok());
  ASSERT_TRUE(item.value());
  EXPECT_EQ(item.value()->at("condition").s(), "RecordAgeExceeded");
  EXPECT_EQ(item.value()->at("batchSize").n().ToString(), "1");
  Put("y");
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 1; }));
}

TEST_F(DispatcherTest, AFailingTriggerDoesNotHoldAnother) {
  auto stuck = Config();
  stuck.name = "stuck";
  stuck.command = {"/bin/sh", "-c", "sleep 30"};
  stuck.timeout_s = 60;
  Put("a");
  Start({stuck, Config()});
  ASSERT_TRUE(WaitFor([&] {
    for (const auto& s : dispatcher_->Stats()) {
      if (s->name == "trig" && s->records_delivered.load() == 1) return true;
    }
    return false;
  }));
  auto start = std::chrono::steady_clock::now();
  dispatcher_.reset();  // kills the running handler
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(DispatcherTest, StoppingDoesNotWaitForAHangingHttpHandler) {
  // A listening socket nobody accepts on: the POST is sent, no answer ever comes.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 4), 0);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  auto c = Config();
  c.command.clear();
  c.url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/";
  c.timeout_s = 60;
  Put("a");
  Start({c});
  ASSERT_TRUE(WaitFor([&] { return Stats()->invocations.load() == 1; }));
  auto start = std::chrono::steady_clock::now();
  dispatcher_->Apply({});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  close(fd);
}

TEST_F(DispatcherTest, ReloadKeepsUnchangedTriggersAndStopsRemovedOnes) {
  Put("a");
  Start({Config()});
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 1; }));
  dispatcher_->Apply({Config()});
  Put("b");
  ASSERT_TRUE(WaitFor([&] { return Stats()->records_delivered.load() == 2; }));  // counters kept
  dispatcher_->Apply({});
  EXPECT_TRUE(dispatcher_->Stats().empty());
  Put("c");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(Batches(), (BatchList{{"a"}, {"b"}}));
}

TEST_F(DispatcherTest, StatusShowsSettingsCountersAndWhereEachShardStands) {
  auto stuck = Config();
  stuck.name = "stuck";
  stuck.command = {"/bin/sh", "-c", "sleep 30"};
  stuck.on_failure = {Destination::Kind::kFile, "/tmp/failed.jsonl"};
  for (auto k : {"a", "b", "c", "d", "e"}) Put(k);
  Start({stuck, Config()});
  auto find = [&](const rapidjson::Document& doc, const char* name) -> const rapidjson::Value* {
    for (const auto& t : doc["triggers"].GetArray()) {
      if (std::string(t["name"].GetString()) == name) return &t;
    }
    return nullptr;
  };
  rapidjson::Document doc;
  ASSERT_TRUE(WaitFor([&] {
    doc.Parse(dispatcher_->StatusJson().c_str());
    const auto* t = find(doc, "trig");
    const auto* s = find(doc, "stuck");
    return t && s && (*t)["recordsDelivered"].GetUint64() == 5 &&
           std::string((*s)["state"].GetString()) == "delivering";
  })) << dispatcher_->StatusJson();
  auto stream = db_->streams().List().at(0);
  const std::string shard = streams::ShardId(stream->info());
  const uint64_t last = stream->sequences().Watermark();
  EXPECT_TRUE(doc["configured"].GetBool());
  const auto& t = *find(doc, "trig");
  EXPECT_STREQ(t["table"].GetString(), "t");
  EXPECT_STREQ(t["handler"]["kind"].GetString(), "command");
  EXPECT_STREQ(t["handler"]["command"][0].GetString(), "/bin/sh");
  EXPECT_STREQ(t["startingPosition"].GetString(), "TRIM_HORIZON");
  EXPECT_EQ(t["batchSize"].GetInt(), 3);
  EXPECT_TRUE(t["onFailure"].IsNull());
  EXPECT_TRUE(t["lastError"].IsNull());
  EXPECT_EQ(t["batchesDelivered"].GetUint64(), 2u);  // [a b c] [d e]
  EXPECT_EQ(t["invocations"].GetUint64(), 2u);
  EXPECT_EQ(t["lagRecords"].GetInt64(), 0);
  ASSERT_EQ(t["shards"].Size(), 1u);
  EXPECT_STREQ(t["shards"][0]["shardId"].GetString(), shard.c_str());
  EXPECT_TRUE(t["shards"][0]["current"].GetBool());
  EXPECT_FALSE(t["shards"][0]["closed"].GetBool());
  EXPECT_EQ(t["shards"][0]["nextSequenceNumber"].GetString(), streams::FormatSequenceNumber(last + 1));
  EXPECT_EQ(t["shards"][0]["lastSequenceNumber"].GetString(), streams::FormatSequenceNumber(last));
  // The stuck handler holds its first batch: all five records behind it.
  const auto& s = *find(doc, "stuck");
  EXPECT_STREQ(s["onFailure"].GetString(), "file:/tmp/failed.jsonl");
  EXPECT_EQ(s["batchesDelivered"].GetUint64(), 0u);
  EXPECT_EQ(s["lagRecords"].GetInt64(), 5);
  EXPECT_EQ(s["shards"][0]["lagRecords"].GetInt64(), 5);
  EXPECT_EQ(s["shards"][0]["nextSequenceNumber"].GetString(), streams::FormatSequenceNumber(last - 4));
  // Only the triggers of tables the caller may see.
  doc.Parse(dispatcher_->StatusJson([](const std::string& table) { return table != "t"; }).c_str());
  EXPECT_EQ(doc["triggers"].Size(), 0u);
  EXPECT_NE(dispatcher_->RenderMetrics().find("monotable_trigger_batches_delivered_total{trigger=\"trig\",table=\"t\"} 2"),
            std::string::npos);
}

}  // namespace
}  // namespace monotable::triggers
