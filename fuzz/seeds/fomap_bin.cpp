#include "seeds.hpp"
#include "sortie/fomap/map_blob.hpp"
#include "sortie/fomap/property_blob.hpp"

SORTIE_FUZZ_SEEDS(fomap_bin, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  fomap::PropertyData d;
  d.pod = core::Bytes(64, 0);
  d.pod[5] = 7;
  d.pod[40] = 1;
  d.complex = {core::Bytes{}, core::Bytes{'a', 'b'}};
  fomap::ServerMapBlob s;
  s.dictionary = fomap::sort_dictionary({"art/a.frm", "Guard"});
  s.critters.push_back({5001, 42, fomap::write_property_blob(d)});
  s.items.push_back({5002, 43, fomap::write_property_blob(d)});
  out.add("server", fomap::write_server_blob(s));
  fomap::ClientMapBlob c;
  c.items.push_back({7, 9, core::Bytes{1, 2, 3}});
  out.add("client", fomap::write_client_blob(c));
  out.add("empty_server", core::Bytes(12, 0));
  out.add("property_blob", fomap::write_property_blob(d));
});
