"""Where a webhook may send: public internet addresses only, unless the operator allows more.

A Keeper's URL is a request the server makes on their behalf, so without a fence anyone who
creates a chase could make the server knock on its own network (the database, Redis, cloud
metadata at 169.254.169.254) and read the answer's status in the delivery list. So a URL is
refused when it carries credentials, when its host is a number written in an odd form
(``2130706433``, ``0x7f.1``: the C library reads them as addresses), or when its host is, or
resolves to, an address that is loopback, private, link-local, multicast, reserved or
unspecified. IPv6 forms that carry an IPv4 address inside (``::ffff:127.0.0.1``, 6to4,
NAT64) are judged by that IPv4 address. The check is made again at every delivery, after the
name is resolved, and the connection goes to the very address that was checked, so a name
that resolves elsewhere the second time (DNS rebinding) gains nothing.

``CHASE_LEDGER_WEBHOOK_ALLOW`` lists hosts and networks a self-hosted server may reach all the
same (``localhost,10.0.0.0/8,bot.lan``).
"""
from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit, urlunsplit

import idna

from infrastructure.webhook_lookups import LOOKUPS, LookupFailed, LookupQueued, Lookups

__all__ = ["LookupFailed", "LookupQueued", "TargetPolicy", "TargetRefused", "ascii_url", "is_public"]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: an IPv4 address in the low 32 bits


class TargetRefused(Exception):
    """The URL, or an address its host resolves to, is not one a webhook may reach."""


def ascii_url(url: str) -> str:
    """The URL as it is stored and sent: a host name in another script in its ASCII form (IDNA
    2008 with the UTS 46 mapping, as browsers read it: ``bücher.example`` is
    ``xn--bcher-kva.example``, the ideographic full stop a dot), other characters beyond ASCII
    percent-encoded. HTTP sends ASCII only; TargetRefused if the host has no ASCII form."""
    if url.isascii():
        return url
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. a full-width colon or slash in the host
        raise TargetRefused("has a host that is not a valid host name") from None
    netloc = parts.netloc
    if not netloc.isascii():
        if "@" in netloc:
            raise TargetRefused("must not carry a user name or password")
        host, colon, port = netloc.partition(":")  # a host beyond ASCII is no bracketed IPv6 address
        try:
            host = idna.encode(host, uts46=True).decode("ascii")
        except UnicodeError:  # idna.IDNAError is one
            raise TargetRefused("has a host name that has no ASCII form (IDNA)") from None
        netloc = host + colon + port
    rest = urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return re.sub(r"[^\x00-\x7f]+", lambda m: quote(m.group(0)), rest)


def _inner_ipv4(ip: Address) -> Address:
    """The IPv4 address an IPv6 address carries (mapped, 6to4, NAT64), else the address itself."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return ip.ipv4_mapped
        if ip.sixtofour is not None:
            return ip.sixtofour
        if ip in NAT64:
            return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip


def is_public(ip: Address) -> bool:
    """Whether the address is on the public internet (nothing of the server's own networks)."""
    ip = _inner_ipv4(ip)
    return ip.is_global and not (
        ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified
    )


def _odd_number(host: str) -> bool:
    """A host the C library reads as an IPv4 address though it is no dotted quad (2130706433, 0x7f.1, 127.1)."""
    try:
        ipaddress.IPv4Address(host)
        return False
    except ValueError:
        pass
    try:
        socket.inet_aton(host)
        return True
    except OSError:
        return False


@dataclass(frozen=True)
class TargetPolicy:
    """Public addresses, plus the hosts and networks the operator allows."""

    hosts: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = ()
    lookups: Lookups = field(default=LOOKUPS, compare=False)

    @classmethod
    def parse(cls, setting: str) -> TargetPolicy:
        """``localhost,10.0.0.0/8,bot.lan``: host names, addresses and networks (CIDR), comma-separated."""
        hosts: set[str] = set()
        networks: list[Network] = []
        for entry in (e.strip().lower().strip("[]") for e in setting.split(",")):
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                hosts.add(entry.rstrip("."))
        return cls(frozenset(hosts), tuple(networks))

    def allows(self, host: str, ip: Address) -> bool:
        return host in self.hosts or any(ip in n or _inner_ipv4(ip) in n for n in self.networks) or is_public(ip)

    def check_url(self, url: str) -> tuple[str, int]:
        """The host and port of the URL's ASCII form (ascii_url), or TargetRefused saying why (the
        URL itself is never repeated)."""
        try:
            parts = urlsplit(ascii_url(url))
        except ValueError:  # an unclosed [ of an IPv6 address
            raise TargetRefused("has a host that is not a valid host name") from None
        if parts.scheme.lower() not in ("http", "https"):
            raise TargetRefused("must be an http:// or https:// URL")
        if "@" in parts.netloc:
            raise TargetRefused("must not carry a user name or password")
        host = (parts.hostname or "").rstrip(".")
        try:
            port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        except ValueError:
            raise TargetRefused("has a port that is not a number from 0 to 65535") from None
        if not host:
            raise TargetRefused("has no host")
        if host in self.hosts:
            return host, port
        if _odd_number(host):
            raise TargetRefused("has a host that is a number in an odd form: write an address as four decimal numbers (a.b.c.d)")
        try:
            literal: Address | None = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        if literal is not None and not self.allows(host, literal):
            raise TargetRefused(f"points at an address of the server's own networks ({_kind(literal)}); webhooks reach public addresses only")
        if literal is None and (host == "localhost" or host.endswith(".localhost")):
            raise TargetRefused("points at the server itself (localhost); webhooks reach public addresses only")
        return host, port

    def resolve(self, host: str, port: int, timeout: float) -> list[str]:
        """The addresses of ``host`` a webhook may reach, in the resolver's order; TargetRefused if none.
        (``port`` plays no part in the lookup: one lookup serves every port of a host.)"""
        host = host.rstrip(".").lower()
        literal: Address | None = None
        try:
            literal = ipaddress.ip_address(host)
            found: list[Address] = [literal]
        except ValueError:
            if _odd_number(host):
                raise TargetRefused("the host is a number in an odd form") from None
            found = [ipaddress.ip_address(a) for a in self.lookups.addresses(host, timeout)]
        allowed = [str(ip) for ip in dict.fromkeys(found) if self.allows(host, ip)]
        if not allowed and literal is None:
            # Which kind of address a name has would let a Keeper map the server's internal DNS.
            raise TargetRefused("the host's name resolves to an address that is not public; webhooks reach public addresses only")
        if not allowed:
            raise TargetRefused(f"the host is an address of the server's own networks ({_kind(found[0])}); webhooks reach public addresses only")
        return allowed


def _kind(ip: Address) -> str:
    ip = _inner_ipv4(ip)
    for name in ("loopback", "unspecified", "link_local", "multicast", "private", "reserved"):
        if getattr(ip, f"is_{name}"):
            return name.replace("_", "-")
    return "not public"
