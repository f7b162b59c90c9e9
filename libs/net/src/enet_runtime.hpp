#pragma once
// ENet set-up shared by the transport and the UDP relay (private to libs/net).
#include <enet/enet.h>

#include <string>

#include "sortie/core/diagnostic.hpp"

namespace sortie::net::detail {

// enet_initialize once per process (enet_deinitialize at exit). Errors: net.enet.init.
core::Status ensure_enet();
// "" / "*" / "0.0.0.0" = any. Errors: net.enet.address.
core::Result<ENetAddress> resolve(const std::string& host, std::uint16_t port);
std::string address_text(const ENetAddress& address);

}  // namespace sortie::net::detail
