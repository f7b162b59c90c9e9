// Transports: the in-process one keeps the delivery policies' promises over a lossy link, the
// lossy link is seeded and counts what it did, ENet carries both channels on loopback, and the
// UDP relay sits below ENet without ENet noticing more than loss.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "sortie/net/enet_transport.hpp"
#include "sortie/net/lossy_link.hpp"
#include "sortie/net/memory_transport.hpp"
#include "sortie/net/udp_relay.hpp"
#include "sortie_test/net_fixture.hpp"

using namespace sortie;
using namespace sortie::net;

namespace {

std::vector<TransportEvent> poll_all(Transport& t) {
  std::vector<TransportEvent> out;
  EXPECT_TRUE(t.poll(0, out).has_value());
  return out;
}

std::vector<std::uint8_t> payloads(const std::vector<TransportEvent>& events, Delivery d) {
  std::vector<std::uint8_t> out;
  for (const auto& e : events) {
    if (e.type == TransportEvent::Type::received && e.delivery == d) out.push_back(e.data.at(0));
  }
  return out;
}

}  // namespace

TEST(LossyLinkTest, parses_a_loss_spec) {
  auto spec = parse_loss_spec("drop=0.1,dup=0.05,reorder=0.2,delay=20ms,jitter=500us,hold=1s");
  ASSERT_TRUE(spec.has_value()) << spec.error().to_string();
  EXPECT_EQ(spec->drop, 0.1);
  EXPECT_EQ(spec->duplicate, 0.05);
  EXPECT_EQ(spec->reorder, 0.2);
  EXPECT_EQ(spec->delay_us, 20'000u);
  EXPECT_EQ(spec->jitter_us, 500u);
  EXPECT_EQ(spec->reorder_us, 1'000'000u);
  EXPECT_EQ(parse_loss_spec("delay=7").value().delay_us, 7000u);  // bare numbers are ms
  EXPECT_TRUE(parse_loss_spec("").value().ideal());
  for (const char* bad : {"drop=1", "drop=-0.1", "drop=x", "delay=5h", "speed=3", "drop", "delay=61s"}) {
    EXPECT_EQ(parse_loss_spec(bad).error().code, "net.loss_spec") << bad;
  }
}

TEST(LossyLinkTest, is_seeded_and_counts_its_decisions) {
  LossSpec spec;
  spec.drop = 0.2;
  spec.duplicate = 0.1;
  spec.reorder = 0.1;
  spec.delay_us = 1000;
  spec.jitter_us = 500;
  LossyLink a(spec, 9), b(spec, 9), c(spec, 10);
  std::vector<std::vector<std::uint64_t>> ra, rb, rc;
  for (std::uint64_t i = 0; i < 2000; ++i) {
    ra.push_back(a.schedule(i * 100));
    rb.push_back(b.schedule(i * 100));
    rc.push_back(c.schedule(i * 100));
  }
  EXPECT_EQ(ra, rb);
  EXPECT_NE(ra, rc);
  EXPECT_EQ(a.sent(), 2000u);
  // Expected 400 drops, 160 duplicates, 160 held back; within a generous band.
  EXPECT_GT(a.dropped(), 320u);
  EXPECT_LT(a.dropped(), 480u);
  EXPECT_GT(a.duplicated(), 110u);
  EXPECT_LT(a.duplicated(), 210u);
  EXPECT_GT(a.held_back(), 110u);
  std::size_t delivered = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    delivered += ra[i].size();
    for (std::uint64_t t : ra[i]) {
      EXPECT_GE(t, i * 100 + 1000);
      EXPECT_LE(t, i * 100 + 1500 + spec.reorder_us);
    }
  }
  EXPECT_EQ(delivered, 2000 - a.dropped() + a.duplicated());
}

TEST(MemoryTransportTest, keeps_reliable_order_and_drops_late_sequenced_packets) {
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto server = network.listen("s").value();
  LossSpec loss;
  loss.drop = 0.3;
  loss.duplicate = 0.2;
  loss.reorder = 0.3;
  loss.delay_us = 1000;
  loss.jitter_us = 2000;
  loss.reorder_us = 5000;
  auto client = network.connect("s", loss, {}, 3).value();
  auto hello = poll_all(*server);
  ASSERT_EQ(hello.size(), 1u);
  ASSERT_EQ(hello[0].type, TransportEvent::Type::connected);
  ASSERT_EQ(poll_all(*client).at(0).type, TransportEvent::Type::connected);
  for (std::uint8_t i = 0; i < 200; ++i) {
    ASSERT_TRUE(client->send(1, Delivery::reliable_ordered, core::Bytes{i}).has_value());
    ASSERT_TRUE(client->send(1, Delivery::unreliable_sequenced, core::Bytes{i}).has_value());
    clock.advance(100);
  }
  std::vector<TransportEvent> got;
  for (int i = 0; i < 100; ++i) {
    clock.advance(1000);
    auto e = poll_all(*server);
    got.insert(got.end(), e.begin(), e.end());
  }
  const auto reliable = payloads(got, Delivery::reliable_ordered);
  ASSERT_EQ(reliable.size(), 200u);  // every one, once, in order
  for (std::size_t i = 0; i < reliable.size(); ++i) EXPECT_EQ(reliable[i], i);
  const auto sequenced = payloads(got, Delivery::unreliable_sequenced);
  EXPECT_LT(sequenced.size(), 200u);  // some lost
  EXPECT_GT(sequenced.size(), 20u);
  for (std::size_t i = 1; i < sequenced.size(); ++i)
    EXPECT_LT(sequenced[i - 1], sequenced[i]);  // never older, never twice
}

TEST(MemoryTransportTest, disconnect_arrives_after_the_reliable_packets) {
  world::ManualPlatformClock clock;
  MemoryNetwork network(clock);
  auto server = network.listen("s").value();
  LossSpec slow;
  slow.delay_us = 5000;
  auto client = network.connect("s", slow).value();
  (void)poll_all(*server);
  (void)poll_all(*client);
  ASSERT_TRUE(client->send(1, Delivery::reliable_ordered, core::Bytes{7}).has_value());
  client->disconnect(1, static_cast<std::uint32_t>(Reason::left));
  EXPECT_EQ(client->send(1, Delivery::reliable_ordered, core::Bytes{8}).error().code, "net.transport.peer_unknown");
  EXPECT_TRUE(poll_all(*server).empty());
  clock.advance(5000);
  const auto e = poll_all(*server);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].type, TransportEvent::Type::received);
  EXPECT_EQ(e[1].type, TransportEvent::Type::disconnected);
  EXPECT_EQ(e[1].reason, static_cast<std::uint32_t>(Reason::left));
  // A destroyed endpoint (a crash) is a lost transport for the other side: a disconnect without
  // a reason, as ENet's timeout gives.
  auto other = network.connect("s").value();
  (void)poll_all(*server);
  other.reset();
  const auto lost = poll_all(*server);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].type, TransportEvent::Type::disconnected);
  EXPECT_EQ(lost[0].reason, 0u);
  EXPECT_EQ(network.listen("s").error().code, "net.memory.address_taken");
  EXPECT_EQ(network.connect("nowhere").error().code, "net.memory.no_listener");
}

TEST(EnetTransportTest, carries_both_channels_on_loopback) {
  auto server = EnetTransport::listen("127.0.0.1", 0).value();
  ASSERT_NE(server->port(), 0);
  auto client = EnetTransport::connect("127.0.0.1", server->port()).value();
  PeerId at_server = 0, at_client = 0;
  std::vector<TransportEvent> got;
  const auto start = std::chrono::steady_clock::now();
  bool sent = false;
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(5)) {
    std::vector<TransportEvent> e;
    ASSERT_TRUE(server->poll(1, e).has_value());
    for (auto& ev : e) {
      if (ev.type == TransportEvent::Type::connected) at_server = ev.peer;
      if (ev.type == TransportEvent::Type::received) got.push_back(ev);
    }
    e.clear();
    ASSERT_TRUE(client->poll(1, e).has_value());
    for (auto& ev : e) {
      if (ev.type == TransportEvent::Type::connected) at_client = ev.peer;
    }
    if (at_client != 0 && !sent) {
      for (std::uint8_t i = 0; i < 50; ++i) {
        ASSERT_TRUE(client->send(at_client, Delivery::reliable_ordered, core::Bytes{i, 1}).has_value());
      }
      ASSERT_TRUE(client->send(at_client, Delivery::unreliable_sequenced, core::Bytes{99}).has_value());
      client->flush();
      sent = true;
    }
    if (got.size() >= 51) break;
  }
  ASSERT_NE(at_server, 0u);
  ASSERT_EQ(got.size(), 51u);
  const auto reliable = payloads(got, Delivery::reliable_ordered);
  ASSERT_EQ(reliable.size(), 50u);
  for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(reliable[i], i);
  EXPECT_EQ(payloads(got, Delivery::unreliable_sequenced), std::vector<std::uint8_t>{99});
  EXPECT_NE(server->describe(at_server).find("127.0.0.1:"), std::string::npos);
  EXPECT_GT(client->stats().bytes_sent, 50u * 2);
  // A disconnect carries its reason.
  server->disconnect(at_server, static_cast<std::uint32_t>(Reason::kicked));
  std::optional<std::uint32_t> reason;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!reason && std::chrono::steady_clock::now() < until) {
    std::vector<TransportEvent> e;
    ASSERT_TRUE(client->poll(1, e).has_value());
    for (auto& ev : e) {
      if (ev.type == TransportEvent::Type::disconnected && ev.peer == at_client) reason = ev.reason;
    }
    std::vector<TransportEvent> ignored;
    ASSERT_TRUE(server->poll(0, ignored).has_value());
  }
  EXPECT_EQ(reason, static_cast<std::uint32_t>(Reason::kicked));
}

TEST(EnetTransportTest, parses_host_port) {
  EXPECT_EQ(parse_host_port("127.0.0.1:7777").value(), std::make_pair(std::string("127.0.0.1"), std::uint16_t{7777}));
  EXPECT_EQ(parse_host_port("localhost:1").value().second, 1);
  for (const char* bad : {"127.0.0.1", ":7777", "host:0", "host:65536", "host:77x", "host:"}) {
    EXPECT_EQ(parse_host_port(bad).error().code, "net.address") << bad;
  }
  EXPECT_EQ(EnetTransport::connect("0.0.0.0", 7777).error().code, "net.enet.address");
}

TEST(UdpRelayTest, forwards_enet_traffic_through_a_lossy_link) {
  world::SteadyPlatformClock clock;
  auto server = EnetTransport::listen("127.0.0.1", 0).value();
  LossSpec loss;
  loss.drop = 0.2;
  loss.delay_us = 2000;
  auto relay = UdpRelay::open("127.0.0.1", server->port(), loss, 1, clock).value();
  auto client = EnetTransport::connect("127.0.0.1", relay->port()).value();
  PeerId at_client = 0;
  std::size_t received = 0;
  bool sent = false;
  const auto start = std::chrono::steady_clock::now();
  while (received < 100 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
    relay->pump();
    std::vector<TransportEvent> e;
    ASSERT_TRUE(server->poll(0, e).has_value());
    for (auto& ev : e) received += ev.type == TransportEvent::Type::received ? 1 : 0;
    e.clear();
    ASSERT_TRUE(client->poll(0, e).has_value());
    for (auto& ev : e) {
      if (ev.type == TransportEvent::Type::connected) at_client = ev.peer;
    }
    if (at_client != 0 && !sent) {
      for (int i = 0; i < 100; ++i)
        ASSERT_TRUE(client->send(at_client, Delivery::reliable_ordered, core::Bytes{1}).has_value());
      sent = true;
    }
    relay->pump();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_EQ(received, 100u);  // ENet resent what the relay dropped
  EXPECT_GT(relay->stats().dropped, 0u);
  EXPECT_GT(relay->stats().datagrams_out, 0u);
}
