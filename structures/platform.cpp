// SimGrid platform files (version 4.1), the cluster subset, read with pugixml (platform.h).
#include "structures/platform.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include <pugixml.hpp>

#include "distributions/input_error.h"
#include "structures/custom.h"

namespace hetstruct::structures {

const char* to_string(LinkSharing sharing) { return sharing == LinkSharing::fatpipe ? "FATPIPE" : "SHARED"; }

namespace {

using Units = std::unordered_map<std::string, double>;

// SimGrid's unit families: a unit and its prefixed multiples, by 1000 (k, M, G, ...) or by 1024
// (Ki, Mi, Gi, ...), abbreviated or spelt out.
void add_family(Units& units, const std::string& unit, double value, int base, bool abbreviated) {
  static const std::vector<std::string> decimal{"k", "M", "G", "T", "P", "E", "Z", "Y"},
      binary{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"},
      decimal_words{"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"},
      binary_words{"kibi", "mebi", "gibi", "tebi", "pebi", "exbi", "zebi", "yobi"};
  const auto& prefixes = base == 2 ? (abbreviated ? binary : binary_words) : (abbreviated ? decimal : decimal_words);
  const double step = base == 2 ? 1024.0 : 1000.0;
  units.emplace(unit, value);
  for (const auto& prefix : prefixes) {
    value *= step;
    units.emplace(prefix + unit, value);
  }
}

const Units& speed_units() {
  static const Units units = [] {
    Units u;
    add_family(u, "f", 1.0, 10, true);
    add_family(u, "f", 1.0, 2, true);
    add_family(u, "flops", 1.0, 10, false);
    return u;
  }();
  return units;
}

const Units& bandwidth_units() {
  static const Units units = [] {
    Units u;
    add_family(u, "bps", 0.125, 2, true);
    add_family(u, "bps", 0.125, 10, true);
    add_family(u, "Bps", 1.0, 2, true);
    add_family(u, "Bps", 1.0, 10, true);
    return u;
  }();
  return units;
}

const Units& time_units() {
  static const Units units{{"w", 7 * 24 * 3600.0}, {"d", 24 * 3600.0}, {"h", 3600.0}, {"m", 60.0}, {"s", 1.0},
                           {"ms", 1e-3},          {"us", 1e-6},        {"ns", 1e-9},   {"ps", 1e-12}};
  return units;
}

// A number and its unit, whole: the number as std::from_chars reads it, the rest a unit of the
// family (none: `base`).
double parse_with_unit(const std::string& text, const std::string& what, const Units& units, const char* base,
                       const char* examples, bool zero_allowed) {
  double value = 0.0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr == begin)
    throw InputError(what, "'" + text + "' is not a number with a unit", std::string("e.g. ") + examples);
  const std::string unit(ptr, end);
  const auto u = units.find(unit.empty() ? std::string(base) : unit);
  if (u == units.end())
    throw InputError(what, "'" + text + "': unknown unit '" + unit + "'", std::string("SimGrid's units, e.g. ") + examples);
  const double result = value * u->second;
  if (!std::isfinite(result) || result < 0.0 || (!zero_allowed && result == 0.0))
    throw InputError(what, "'" + text + "' is not " + (zero_allowed ? "a finite value >= 0" : "a finite value > 0"),
                     std::string("e.g. ") + examples);
  return result;
}

class Reader {
 public:
  Reader(const std::string& text, std::string source) : text_(text), source_(std::move(source)) {}

  Platform read() {
    pugi::xml_document doc;
    const pugi::xml_parse_result result = doc.load_buffer(text_.data(), text_.size(), pugi::parse_default);
    if (!result)
      throw InputError(source_ + ":" + std::to_string(line_of(result.offset)), std::string("not XML: ") + result.description(),
                       "a SimGrid platform file (version 4.1)");
    platform_.source = source_;
    pugi::xml_node root;
    for (pugi::xml_node node : doc.children()) {
      if (node.type() != pugi::node_element) continue;
      if (root) refuse(node, "a second root element <" + std::string(node.name()) + ">", "one <platform>");
      root = node;
    }
    if (!root) throw InputError(source_, "no <platform> element", "a SimGrid platform file (version 4.1)");
    if (std::string(root.name()) != "platform")
      refuse(root, "<" + std::string(root.name()) + "> is not <platform>", "a SimGrid platform file (version 4.1)");
    attributes(root, {"version"});
    const std::string version = root.attribute("version").value();
    if (version != "4.1")
      refuse(root, "platform version '" + version + "'", "version=\"4.1\" (SimGrid 3.32's format)");
    bool seen = false;
    for (pugi::xml_node node : elements(root)) {
      const std::string name = node.name();
      if (seen) refuse(node, "<" + name + "> beside the platform's first zone", "one <zone routing=\"Full\"> or one <cluster>");
      seen = true;
      if (name == "zone") {
        zone(node);
      } else if (name == "cluster") {
        cluster(node);
      } else {
        unsupported(node);
      }
    }
    if (platform_.hosts.empty()) throw InputError(source_, "the platform has no host", "a <zone> of <host> elements or a <cluster>");
    return std::move(platform_);
  }

 private:
  const std::string& text_;
  std::string source_;
  Platform platform_;
  std::map<std::string, std::uint32_t> link_by_id_;
  std::map<std::string, int> host_by_id_;
  std::set<std::string> names_;  // hosts, links and zones share SimGrid's name space

  int line_of(std::ptrdiff_t offset) const {
    const auto end = text_.begin() + std::clamp<std::ptrdiff_t>(offset, 0, static_cast<std::ptrdiff_t>(text_.size()));
    return 1 + static_cast<int>(std::count(text_.begin(), end, '\n'));
  }
  std::string where(pugi::xml_node node) const { return source_ + ":" + std::to_string(line_of(node.offset_debug())); }
  [[noreturn]] void refuse(pugi::xml_node node, const std::string& problem, const std::string& hint = {}) const {
    throw InputError(where(node), problem, hint);
  }
  [[noreturn]] void unsupported(pugi::xml_node node) const {
    refuse(node, "<" + std::string(node.name()) + "> is outside the platform subset hetstruct reads",
           "docs/platform.md: one Full zone of host, link and route, or one cluster");
  }
  // The element children (text other than white space is refused).
  std::vector<pugi::xml_node> elements(pugi::xml_node parent) const {
    std::vector<pugi::xml_node> out;
    for (pugi::xml_node node : parent.children()) {
      if (node.type() == pugi::node_element) {
        out.push_back(node);
      } else if (node.type() == pugi::node_pcdata || node.type() == pugi::node_cdata) {
        const std::string value = node.value();
        if (value.find_first_not_of(" \t\r\n") != std::string::npos)
          refuse(node, "text '" + value + "' inside <" + std::string(parent.name()) + ">", "elements only");
      }
    }
    return out;
  }
  // Only these attributes, each once.
  void attributes(pugi::xml_node node, std::initializer_list<const char*> allowed) const {
    std::set<std::string> seen;
    for (pugi::xml_attribute a : node.attributes()) {
      const std::string name = a.name();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* x) { return name == x; }))
        refuse(node, "<" + std::string(node.name()) + "> attribute " + name + " is outside the platform subset hetstruct reads",
               "docs/platform.md");
      if (!seen.insert(name).second) refuse(node, "<" + std::string(node.name()) + "> gives " + name + " twice");
    }
  }
  std::string required(pugi::xml_node node, const char* name) const {
    const pugi::xml_attribute a = node.attribute(name);
    if (!a) refuse(node, "<" + std::string(node.name()) + "> has no " + name);
    const std::string value = a.value();
    if (value.empty()) refuse(node, "<" + std::string(node.name()) + "> has an empty " + name);
    return value;
  }
  std::string optional(pugi::xml_node node, const char* name, const char* otherwise) const {
    const pugi::xml_attribute a = node.attribute(name);
    return a ? std::string(a.value()) : std::string(otherwise);
  }
  void no_children(pugi::xml_node node) const {
    const auto children = elements(node);
    if (!children.empty()) unsupported(children.front());
  }
  void name(pugi::xml_node node, const std::string& id) {
    if (!names_.insert(id).second) refuse(node, "the name '" + id + "' is given twice", "hosts, links and zones each need their own id");
  }
  std::string what(pugi::xml_node node, const char* attribute) const {
    return where(node) + ": <" + std::string(node.name()) + "> " + attribute;
  }
  double speed(pugi::xml_node node, const char* attribute, const std::string& text) const {
    if (text.find(',') != std::string::npos)
      refuse(node, "<" + std::string(node.name()) + "> " + attribute + " '" + text + "' lists several power states",
             "one speed (SimGrid's pstates are outside the subset)");
    return parse_platform_speed(text, what(node, attribute));
  }
  int cores(pugi::xml_node node, const char* attribute, const std::string& text) const {
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || value < 1 || value > max_cores)
      refuse(node, "<" + std::string(node.name()) + "> " + attribute + " '" + text + "' is not a core count",
             "an integer from 1 to " + std::to_string(max_cores));
    return value;
  }
  LinkSharing sharing(pugi::xml_node node, const char* attribute, const std::string& text) const {
    if (text == "SHARED") return LinkSharing::shared;
    if (text == "FATPIPE") return LinkSharing::fatpipe;
    refuse(node, "<" + std::string(node.name()) + "> " + attribute + " '" + text + "' is outside the platform subset hetstruct reads",
           "SHARED or FATPIPE");
  }

  void add_host(pugi::xml_node node, const std::string& id, double speed_value, int core_count) {
    name(node, id);
    host_by_id_[id] = static_cast<int>(platform_.hosts.size());
    platform_.hosts.push_back({id, speed_value, core_count, line_of(node.offset_debug())});
  }
  std::uint32_t add_link(pugi::xml_node node, PlatformLink link) {
    name(node, link.id);
    const auto index = static_cast<std::uint32_t>(platform_.links.size());
    link_by_id_[link.id] = index;
    platform_.links.push_back(std::move(link));
    return index;
  }
  void size_routes() {
    const std::size_t n = platform_.hosts.size();
    platform_.routes.assign(n * n, {});
    platform_.route_defined.assign(n * n, 0);
  }
  void set_route(pugi::xml_node node, std::size_t a, std::size_t b, std::vector<std::uint32_t> links) {
    const std::size_t k = a * platform_.hosts.size() + b;
    if (platform_.route_defined[k])
      refuse(node, "the route from " + platform_.hosts[a].id + " to " + platform_.hosts[b].id + " is given twice",
             "one route per ordered pair (a symmetrical route gives both directions)");
    platform_.route_defined[k] = 1;
    platform_.routes[k] = std::move(links);
  }

  void zone(pugi::xml_node node) {
    attributes(node, {"id", "routing"});
    const std::string id = required(node, "id");
    const std::string routing = required(node, "routing");
    if (routing != "Full")
      refuse(node, "<zone> routing '" + routing + "' is outside the platform subset hetstruct reads", "routing=\"Full\"");
    name(node, id);
    const auto children = elements(node);
    if (!children.empty() && std::string(children.front().name()) == "cluster") {
      if (children.size() > 1) refuse(children[1], "<" + std::string(children[1].name()) + "> beside a cluster", "a cluster alone in its zone");
      cluster(children.front());
      return;
    }
    std::vector<pugi::xml_node> routes;
    for (pugi::xml_node child : children) {
      const std::string kind = child.name();
      if (kind == "host") {
        if (!routes.empty()) refuse(child, "<host> after a <route>", "hosts and links first, then routes (SimGrid's order)");
        attributes(child, {"id", "speed", "core"});
        no_children(child);
        add_host(child, required(child, "id"), speed(child, "speed", required(child, "speed")),
                 cores(child, "core", optional(child, "core", "1")));
      } else if (kind == "link") {
        if (!routes.empty()) refuse(child, "<link> after a <route>", "hosts and links first, then routes (SimGrid's order)");
        attributes(child, {"id", "bandwidth", "latency", "sharing_policy"});
        no_children(child);
        PlatformLink link;
        link.id = required(child, "id");
        const std::string bw = required(child, "bandwidth");
        if (bw.find(',') != std::string::npos || bw.find(';') != std::string::npos)
          refuse(child, "<link> bandwidth '" + bw + "' lists several bandwidths", "one bandwidth (split-duplex links are outside the subset)");
        link.bandwidth = parse_platform_bandwidth(bw, what(child, "bandwidth"));
        link.latency = parse_platform_latency(optional(child, "latency", "0"), what(child, "latency"));
        link.sharing = sharing(child, "sharing_policy", optional(child, "sharing_policy", "SHARED"));
        add_link(child, std::move(link));
      } else if (kind == "route") {
        routes.push_back(child);
      } else {
        unsupported(child);
      }
    }
    size_routes();
    for (pugi::xml_node r : routes) route(r);
  }

  void route(pugi::xml_node node) {
    attributes(node, {"src", "dst", "symmetrical"});
    const std::string src = required(node, "src"), dst = required(node, "dst");
    const std::string symmetrical = optional(node, "symmetrical", "YES");
    if (symmetrical != "YES" && symmetrical != "NO" && symmetrical != "yes" && symmetrical != "no")
      refuse(node, "<route> symmetrical '" + symmetrical + "'", "YES or NO");
    const auto host = [&](const std::string& id, const char* attribute) {
      const auto h = host_by_id_.find(id);
      if (h == host_by_id_.end())
        refuse(node, "<route> " + std::string(attribute) + " '" + id + "' is not a host of the zone", "its hosts: " + platform_.host_list());
      return static_cast<std::size_t>(h->second);
    };
    const std::size_t a = host(src, "src"), b = host(dst, "dst");
    if (a == b)
      refuse(node, "a route from " + src + " to itself", "hetstruct's messages within a host cost nothing: drop the route");
    std::vector<std::uint32_t> links;
    for (pugi::xml_node child : elements(node)) {
      if (std::string(child.name()) != "link_ctn") unsupported(child);
      attributes(child, {"id"});
      no_children(child);
      const std::string id = required(child, "id");
      const auto l = link_by_id_.find(id);
      if (l == link_by_id_.end()) refuse(child, "<link_ctn> id '" + id + "' is not a link of the zone", "declare it with <link> before the routes");
      links.push_back(l->second);
    }
    if (links.empty()) refuse(node, "the route from " + src + " to " + dst + " has no link", "at least one <link_ctn id=...>");
    const std::vector<std::uint32_t> reverse(links.rbegin(), links.rend());
    set_route(node, a, b, std::move(links));
    if (symmetrical == "YES" || symmetrical == "yes") set_route(node, b, a, reverse);
  }

  // "0-3,7": 0, 1, 2, 3, 7.
  std::vector<long> radicals(pugi::xml_node node, const std::string& text) const {
    std::vector<long> out;
    const auto number = [&](const std::string& item) {
      long value = 0;
      const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
      if (ec != std::errc() || ptr != item.data() + item.size() || item.empty() || value < 0)
        refuse(node, "<cluster> radical '" + text + "': '" + item + "' is not a number >= 0", "e.g. radical=\"0-3,7\"");
      return value;
    };
    std::size_t begin = 0;
    while (begin <= text.size()) {
      const std::size_t comma = std::min(text.find(',', begin), text.size());
      const std::string item = text.substr(begin, comma - begin);
      const std::size_t dash = item.find('-');
      if (dash == std::string::npos) {
        out.push_back(number(item));
      } else {
        const long first = number(item.substr(0, dash)), last = number(item.substr(dash + 1));
        if (last < first) refuse(node, "<cluster> radical '" + text + "': the range '" + item + "' is empty", "first-last with first <= last");
        if (last - first > max_processor) refuse(node, "<cluster> radical '" + text + "' has more than " + std::to_string(max_processor) + " hosts");
        for (long i = first; i <= last; ++i) out.push_back(i);
      }
      if (static_cast<long>(out.size()) > max_processor)
        refuse(node, "<cluster> radical '" + text + "' has more than " + std::to_string(max_processor) + " hosts");
      begin = comma + 1;
    }
    return out;
  }

  void cluster(pugi::xml_node node) {
    attributes(node, {"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy", "bb_bw",
                      "bb_lat", "bb_sharing_policy", "topology"});
    no_children(node);
    const std::string id = required(node, "id");
    const std::string topology = optional(node, "topology", "FLAT");
    if (topology != "FLAT") refuse(node, "<cluster> topology '" + topology + "' is outside the platform subset hetstruct reads", "FLAT");
    name(node, id);
    const std::string prefix = optional(node, "prefix", ""), suffix = optional(node, "suffix", "");
    if (!node.attribute("prefix")) refuse(node, "<cluster> has no prefix");
    if (!node.attribute("suffix")) refuse(node, "<cluster> has no suffix");
    const std::vector<long> numbers = radicals(node, required(node, "radical"));
    const double host_speed = speed(node, "speed", required(node, "speed"));
    const int core_count = cores(node, "core", optional(node, "core", "1"));
    const double bw = parse_platform_bandwidth(required(node, "bw"), what(node, "bw"));
    const double lat = parse_platform_latency(required(node, "lat"), what(node, "lat"));
    const std::string policy = optional(node, "sharing_policy", "SPLITDUPLEX");
    if (policy != "SHARED" && policy != "SPLITDUPLEX")
      refuse(node, "<cluster> sharing_policy '" + policy + "' is outside the platform subset hetstruct reads", "SPLITDUPLEX or SHARED");
    const bool split = policy == "SPLITDUPLEX";
    std::optional<std::uint32_t> backbone;
    const std::string bb_bw_text = optional(node, "bb_bw", "");
    const double bb_lat = parse_platform_latency(optional(node, "bb_lat", "0s"), what(node, "bb_lat"));
    const LinkSharing bb_policy = sharing(node, "bb_sharing_policy", optional(node, "bb_sharing_policy", "SHARED"));
    if (!bb_bw_text.empty() || bb_lat > 0.0) {
      if (bb_bw_text.empty()) refuse(node, "<cluster> gives bb_lat without bb_bw", "give the backbone's bandwidth bb_bw");
      backbone = add_link(node, {id + "_backbone", parse_platform_bandwidth(bb_bw_text, what(node, "bb_bw")), bb_lat, bb_policy});
    } else if (node.attribute("bb_sharing_policy")) {
      refuse(node, "<cluster> gives bb_sharing_policy without a backbone", "give bb_bw");
    }
    std::vector<std::uint32_t> up, down;
    for (long i : numbers) {
      add_host(node, prefix + std::to_string(i) + suffix, host_speed, core_count);
      const std::string link = id + "_link_" + std::to_string(i);
      if (split) {
        up.push_back(add_link(node, {link + "_UP", bw, lat, LinkSharing::shared}));
        down.push_back(add_link(node, {link + "_DOWN", bw, lat, LinkSharing::shared}));
      } else {
        up.push_back(add_link(node, {link, bw, lat, LinkSharing::shared}));
        down.push_back(up.back());
      }
    }
    size_routes();
    const std::size_t n = numbers.size();
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) {
        if (a == b) continue;
        std::vector<std::uint32_t> links{up[a]};
        if (backbone) links.push_back(*backbone);
        if (down[b] != up[a]) links.push_back(down[b]);
        platform_.route_defined[a * n + b] = 1;
        platform_.routes[a * n + b] = std::move(links);
      }
  }
};

}  // namespace

int Platform::host_index(const std::string& id) const {
  for (std::size_t i = 0; i < hosts.size(); ++i)
    if (hosts[i].id == id) return static_cast<int>(i);
  return -1;
}

double Platform::route_latency(std::size_t a, std::size_t b) const {
  double sum = 0.0;
  for (std::uint32_t l : route(a, b)) sum += links[l].latency;
  return sum;
}

double Platform::route_bottleneck(std::size_t a, std::size_t b) const {
  double least = HUGE_VAL;
  for (std::uint32_t l : route(a, b)) least = std::min(least, links[l].bandwidth);
  return least;
}

std::string Platform::host_list() const {
  std::string out;
  for (const auto& h : hosts) out += (out.empty() ? "" : ", ") + h.id;
  return out;
}

double parse_platform_speed(const std::string& text, const std::string& what) {
  return parse_with_unit(text, what, speed_units(), "f", "speed=\"1Gf\" (f, kf, Mf, Gf, Tf)", false);
}
double parse_platform_bandwidth(const std::string& text, const std::string& what) {
  return parse_with_unit(text, what, bandwidth_units(), "Bps", "bandwidth=\"125MBps\" or \"1Gbps\"", false);
}
double parse_platform_latency(const std::string& text, const std::string& what) {
  return parse_with_unit(text, what, time_units(), "s", "latency=\"50us\" (s, ms, us, ns)", true);
}

void apply_platform(CustomDag& dag, const Platform& platform, const std::string& source) {
  const std::string beside = " does not apply beside a platform";
  if (!dag.processor_scale.empty())
    throw InputError(source, "processor_scale" + beside, "the hosts' speeds in " + platform.source + " give it");
  if (!dag.processor_cores.empty())
    throw InputError(source, "processor_cores" + beside, "the hosts' cores in " + platform.source + " give them");
  const int hosts = static_cast<int>(platform.hosts.size());
  for (auto& t : dag.tasks) {
    const std::string where = source + ": vertex '" + t.name + "'";
    if (!t.costs.empty()) throw InputError(where, "costs" + beside, "give its work in flops as law=, the hosts' speeds divide it");
    if (!t.host.empty()) {
      t.processor = platform.host_index(t.host);
      if (t.processor < 0)
        throw InputError(where, "host '" + t.host + "' is not a host of " + platform.source, "its hosts: " + platform.host_list());
    } else if (t.processor >= hosts) {
      throw InputError(where, "processor " + std::to_string(t.processor) + " is not one of the " + std::to_string(hosts) +
                                  " hosts of " + platform.source,
                       "processor= counts the platform's hosts from 0 (" + platform.host_list() + "), or give host=\"id\"");
    }
  }
  for (const auto& e : dag.edges)
    if (e.comm_law >= 0 && !e.bytes)
      throw InputError(source + ": edge '" + dag.tasks[e.from].name + "' -> '" + dag.tasks[e.to].name + "'", "comm" + beside,
                       "give the message's size as bytes=, the route prices it");
  dag.processor_cores.clear();
  for (const auto& h : platform.hosts) dag.processor_cores.push_back(h.cores);
  dag.machine_width = hosts;
}

void refuse_platform_attributes(const CustomDag& dag, const std::string& source) {
  for (const auto& t : dag.tasks)
    if (!t.host.empty())
      throw InputError(source + ": vertex '" + t.name + "'", "host '" + t.host + "' names a platform host, but no platform is given",
                       "give --platform FILE, or processor=index");
  for (const auto& e : dag.edges)
    if (e.bytes)
      throw InputError(source + ": edge '" + dag.tasks[e.from].name + "' -> '" + dag.tasks[e.to].name + "'",
                       "bytes= is a message's size on a platform, but no platform is given", "give --platform FILE, or comm= (a time)");
}

Platform parse_platform(const std::string& text, const std::string& source_name) {
  return Reader(text, source_name).read();
}

Platform read_platform(const std::string& path) { return parse_platform(read_text_file(path, "platform file"), path); }

}  // namespace hetstruct::structures
