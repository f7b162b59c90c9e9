#include "seeds.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/codec.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/world/builtin_commands.hpp"

SORTIE_FUZZ_SEEDS(net_codec, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  using namespace sortie::net;
  CreateMirror mirror;
  mirror.id = world::ObjectId{1, 20, 1};
  mirror.owner = 1;
  mirror.prototype = "unit";
  mirror.transform.position = {10.0f, 20.0f, 0.5f};
  mirror.properties.set("hp", std::int64_t{7});
  mirror.properties.set("name", std::string("tank"));
  SyncState sync;
  sync.tick = 9;
  SyncEntry e;
  e.id = world::ObjectId{1, 20, 1};
  e.age = 2;
  e.mask = SyncEntry::kPosX | SyncEntry::kOwner;
  e.delta = {5, 0, 0, 0, 0, 0};
  e.owner = 2;
  sync.entries.push_back(e);
  const std::vector<Message> each = {
      CreateRemotePlayer{0, 1, CreateRemotePlayer::kHost, "host", {}},
      AppendResource{1, ResourceKind::prototypes, "prototypes", 9, 1, 0, {1, 0, 0, 0, 4, 'u', 'n', 'i', 't'}},
      ChangeObjectOwner{0, world::ObjectId{1, 20, 1}, 2},
      SetPlayerData{2, {1, 2}},
      MissionDataPath{"MISSIONS/m01/data.tma"},
      TakeObject{world::ObjectId{1, 20, 1}},
      TextForPlayer{2, 0, "hi"},
      sync,
      mirror,
      PauseRemotePlayer{0, 2, true},
      ConfirmPlayerData{2, 0, 3},
      KillPlayer{0, 2, Reason::left, OwnedObjectPolicy::transfer},
      SetTime{0, 2000},
      SetPlayerNumber{2},
      EndMessageSeq{0, 1, 5},
      RemoveResource{1, Reason::resource_timeout},
      Hello{kApplicationGuid, kProtocolVersion, "alice"},
      Welcome{kProtocolVersion, 1, 16000, 1, 1, 4, 0, 0},
      Reject{Reason::flood, "too much"},
      Order{move::GotoCommand::kWireId, world::encode_payload(move::GotoCommand{world::ObjectId{1, 20, 1}, {5, 5}, 6})},
      TickCommand{0, world::StopCommand::kWireId, world::encode_payload(world::StopCommand{world::ObjectId{1, 20, 1}})},
      Ack{3, 2},
  };
  for (const Message& m : each) out.add(std::string(message_name(id_of(m))), encode_message(m).value());
  // A whole little stream in one packet: welcome, setup of one object, two ticks.
  SessionSetup setup;
  setup.mission_path = "m";
  setup.prototypes = {"unit"};
  setup.objects.push_back(mirror);
  std::vector<Message> stream = setup_messages(setup).value();
  Welcome w{kProtocolVersion, 1, 16000, 0, 1, static_cast<std::uint32_t>(stream.size()), 0, 0};
  stream.insert(stream.begin(), w);
  stream.push_back(EndMessageSeq{0, 0, 0});
  stream.push_back(TickCommand{1, move::GotoCommand::kWireId,
                               world::encode_payload(move::GotoCommand{world::ObjectId{1, 20, 1}, {30, 20}, 6})});
  stream.push_back(EndMessageSeq{1, 1, 0});
  core::ByteWriter packet;
  for (const Message& m : stream) (void)write_frame(packet, m);
  out.add("stream", packet.take());
  nav::TriangleSoup soup;
  soup.positions = {{0, 0, 0}, {64, 0, 1}, {64, 64, 1}};
  soup.faces = {{{0, 1, 2}, 1}};
  out.add("terrain", encode_terrain(soup));
  out.add("prototypes", encode_prototypes({"a", "b"}));
});
