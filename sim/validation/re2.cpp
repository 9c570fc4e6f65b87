#include "sim/validation/re2.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace c5c3::sim::validation {

namespace {

struct re_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using range_set = std::vector<std::pair<char32_t, char32_t>>;

struct node {
  enum kind_t { empty, chars, any, concat, alt, repeat, bol, eol, word_b, not_word_b } kind = empty;
  range_set set;
  bool negated = false;
  bool dot_nl = false;
  std::vector<node> kids;
  int min = 0, max = -1;  // repeat; max -1 = unbounded
};

std::vector<char32_t> decode_utf8(std::string_view s) {
  std::vector<char32_t> out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n != 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (!ok) {
      out.push_back(0xFFFD);  // Go decodes an invalid byte as U+FFFD
      ++i;
      continue;
    }
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += n;
  }
  return out;
}

void add_range(range_set& set, char32_t lo, char32_t hi) { set.emplace_back(lo, hi); }

void add_class(range_set& set, char name) {
  switch (name) {
    case 'd': add_range(set, '0', '9'); break;
    case 'w': add_range(set, '0', '9'); add_range(set, 'A', 'Z'); add_range(set, 'a', 'z'); add_range(set, '_', '_'); break;
    case 's': add_range(set, '\t', '\n'); add_range(set, '\f', '\r'); add_range(set, ' ', ' '); break;
    default: break;
  }
}

range_set negate(range_set set) {
  std::sort(set.begin(), set.end());
  range_set out;
  char32_t next = 0;
  for (auto& [lo, hi] : set) {
    if (lo > next) out.emplace_back(next, lo - 1);
    if (hi + 1 > next) next = hi + 1;
  }
  if (next <= 0x10FFFF) out.emplace_back(next, 0x10FFFF);
  return out;
}

void fold_case(range_set& set) {
  range_set extra;
  for (auto& [lo, hi] : set) {
    char32_t a = std::max<char32_t>(lo, 'a'), b = std::min<char32_t>(hi, 'z');
    if (a <= b) extra.emplace_back(a - 32, b - 32);
    a = std::max<char32_t>(lo, 'A');
    b = std::min<char32_t>(hi, 'Z');
    if (a <= b) extra.emplace_back(a + 32, b + 32);
  }
  set.insert(set.end(), extra.begin(), extra.end());
}

class parser {
 public:
  explicit parser(std::string_view p) : s_(decode_utf8(p)) {}

  node parse() {
    node n = alternation();
    if (pos_ < s_.size()) throw re_error("unexpected )");
    return n;
  }

 private:
  bool more() const { return pos_ < s_.size(); }
  char32_t peek() const { return s_[pos_]; }
  bool eat(char32_t c) {
    if (more() && peek() == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  node alternation() {
    node first = concatenation();
    if (!more() || peek() != '|') return first;
    node a;
    a.kind = node::alt;
    a.kids.push_back(std::move(first));
    while (eat('|')) a.kids.push_back(concatenation());
    return a;
  }

  node concatenation() {
    node c;
    c.kind = node::concat;
    bool saved_i = icase_, saved_s = dot_nl_;
    while (more() && peek() != '|' && peek() != ')') {
      auto atom_node = atom();
      if (!atom_node) continue;  // a flags group
      c.kids.push_back(repetition(std::move(*atom_node)));
    }
    // Flags set by (?i) last until the end of the enclosing group.
    if (!more() || peek() == ')') {
      icase_ = saved_i;
      dot_nl_ = saved_s;
    }
    return c;
  }

  node repetition(node a) {
    while (more()) {
      int mn, mx;
      char32_t c = peek();
      if (c == '*') { mn = 0; mx = -1; ++pos_; }
      else if (c == '+') { mn = 1; mx = -1; ++pos_; }
      else if (c == '?') { mn = 0; mx = 1; ++pos_; }
      else if (c == '{') {
        std::size_t save = pos_;
        ++pos_;
        auto num = [&]() -> int {
          int v = -1;
          while (more() && peek() >= '0' && peek() <= '9') {
            v = (v < 0 ? 0 : v) * 10 + static_cast<int>(peek() - '0');
            if (v > 1000) throw re_error("invalid repeat count");
            ++pos_;
          }
          return v;
        };
        mn = num();
        mx = mn;
        if (mn >= 0 && eat(',')) mx = more() && peek() == '}' ? -1 : num();
        if (mn < 0 || !eat('}') || (mx >= 0 && mx < mn) || (mx < -1)) {
          pos_ = save;  // a literal '{' (Go accepts it)
          return a;
        }
      } else {
        return a;
      }
      eat('?');  // lazy: the same language for a yes/no match
      if (a.kind == node::repeat) throw re_error("invalid nested repetition operator");
      node r;
      r.kind = node::repeat;
      r.min = mn;
      r.max = mx;
      r.kids.push_back(std::move(a));
      a = std::move(r);
    }
    return a;
  }

  node chars(range_set set, bool negated = false) {
    if (icase_) fold_case(set);
    node n;
    n.kind = node::chars;
    n.set = negated ? negate(std::move(set)) : std::move(set);
    return n;
  }

  std::optional<node> atom() {
    char32_t c = s_[pos_++];
    switch (c) {
      case '(': return group();
      case '[': return char_class();
      case '.': {
        node n;
        n.kind = node::any;
        n.dot_nl = dot_nl_;
        return n;
      }
      case '^': { node n; n.kind = node::bol; return n; }
      case '$': { node n; n.kind = node::eol; return n; }
      case '*': case '+': case '?': throw re_error("missing argument to repetition operator");
      case '\\': return escape();
      default: return chars({{c, c}});
    }
  }

  std::optional<node> group() {
    if (eat('?')) {
      if (eat('P') || (more() && peek() == '<')) {
        if (!eat('<')) throw re_error("invalid named capture");
        while (more() && peek() != '>') ++pos_;
        if (!eat('>')) throw re_error("invalid named capture");
      } else {
        bool on = true, i = icase_, s = dot_nl_;
        while (more() && peek() != ':' && peek() != ')') {
          char32_t f = s_[pos_++];
          if (f == '-') on = false;
          else if (f == 'i') i = on;
          else if (f == 's') s = on;
          else if (f == 'm' || f == 'U') {}
          else throw re_error("invalid or unsupported Perl syntax");
        }
        if (eat(')')) {  // (?i): flags for the rest of the group
          icase_ = i;
          dot_nl_ = s;
          return std::nullopt;
        }
        if (!eat(':')) throw re_error("missing closing )");
        bool saved_i = icase_, saved_s = dot_nl_;
        icase_ = i;
        dot_nl_ = s;
        node inner = alternation();
        icase_ = saved_i;
        dot_nl_ = saved_s;
        if (!eat(')')) throw re_error("missing closing )");
        return inner;
      }
    }
    bool saved_i = icase_, saved_s = dot_nl_;
    node inner = alternation();
    icase_ = saved_i;
    dot_nl_ = saved_s;
    if (!eat(')')) throw re_error("missing closing )");
    return inner;
  }

  char32_t hex_escape() {
    std::string digits;
    if (eat('{')) {
      while (more() && peek() != '}') digits += static_cast<char>(s_[pos_++]);
      if (!eat('}')) throw re_error("invalid escape sequence");
    } else {
      for (int k = 0; k < 2 && more(); ++k) digits += static_cast<char>(s_[pos_++]);
    }
    if (digits.empty() || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      throw re_error("invalid escape sequence");
    return static_cast<char32_t>(std::stoul(digits, nullptr, 16));
  }

  // An escape inside or outside a class: a set of ranges, or nullopt for an assertion (outside only).
  std::optional<node> escape() {
    if (!more()) throw re_error("trailing backslash at end of expression");
    char32_t c = s_[pos_++];
    switch (c) {
      case 'd': case 'w': case 's': {
        range_set set;
        add_class(set, static_cast<char>(c));
        return chars(set);
      }
      case 'D': case 'W': case 'S': {
        range_set set;
        add_class(set, static_cast<char>(c - 'A' + 'a'));
        node n;
        n.kind = node::chars;
        n.set = negate(set);
        return n;
      }
      case 'b': { node n; n.kind = node::word_b; return n; }
      case 'B': { node n; n.kind = node::not_word_b; return n; }
      case 'A': { node n; n.kind = node::bol; return n; }
      case 'z': { node n; n.kind = node::eol; return n; }
      default: {
        char32_t lit = escaped_literal(c);
        return chars({{lit, lit}});
      }
    }
  }

  char32_t escaped_literal(char32_t c) {
    switch (c) {
      case 't': return '\t';
      case 'n': return '\n';
      case 'r': return '\r';
      case 'f': return '\f';
      case 'v': return '\v';
      case 'a': return '\a';
      case 'x': return hex_escape();
      default:
        if (c < 0x80 && !std::isalnum(static_cast<int>(c))) return c;  // escaped punctuation
        throw re_error(std::string("invalid escape sequence: \\") + static_cast<char>(c));
    }
  }

  node char_class() {
    bool negated = eat('^');
    range_set set;
    bool first = true;
    while (more() && (peek() != ']' || first)) {
      first = false;
      if (peek() == '[' && pos_ + 1 < s_.size() && s_[pos_ + 1] == ':') {
        auto end = std::find(s_.begin() + static_cast<std::ptrdiff_t>(pos_) + 2, s_.end(), ':');
        std::string name(s_.begin() + static_cast<std::ptrdiff_t>(pos_) + 2, end);
        pos_ = static_cast<std::size_t>(end - s_.begin());
        if (!eat(':') || !eat(']')) throw re_error("invalid character class range");
        posix(set, name);
        continue;
      }
      char32_t lo;
      if (eat('\\')) {
        if (!more()) throw re_error("trailing backslash at end of expression");
        char32_t e = s_[pos_++];
        if (e == 'd' || e == 'w' || e == 's') { add_class(set, static_cast<char>(e)); continue; }
        if (e == 'D' || e == 'W' || e == 'S') {
          range_set sub;
          add_class(sub, static_cast<char>(e - 'A' + 'a'));
          auto neg = negate(sub);
          set.insert(set.end(), neg.begin(), neg.end());
          continue;
        }
        lo = escaped_literal(e);
      } else {
        lo = s_[pos_++];
      }
      char32_t hi = lo;
      if (more() && peek() == '-' && pos_ + 1 < s_.size() && s_[pos_ + 1] != ']') {
        ++pos_;
        if (eat('\\')) {
          if (!more()) throw re_error("trailing backslash at end of expression");
          hi = escaped_literal(s_[pos_++]);
        } else {
          hi = s_[pos_++];
        }
        if (hi < lo) throw re_error("invalid character class range");
      }
      add_range(set, lo, hi);
    }
    if (!eat(']')) throw re_error("missing closing ]");
    if (icase_) fold_case(set);
    node n;
    n.kind = node::chars;
    n.set = negated ? negate(std::move(set)) : std::move(set);
    return n;
  }

  static void posix(range_set& set, const std::string& name) {
    if (name == "alpha") { add_range(set, 'A', 'Z'); add_range(set, 'a', 'z'); }
    else if (name == "digit") add_range(set, '0', '9');
    else if (name == "alnum") { add_range(set, '0', '9'); add_range(set, 'A', 'Z'); add_range(set, 'a', 'z'); }
    else if (name == "upper") add_range(set, 'A', 'Z');
    else if (name == "lower") add_range(set, 'a', 'z');
    else if (name == "space") { add_range(set, '\t', '\r'); add_range(set, ' ', ' '); }
    else if (name == "xdigit") { add_range(set, '0', '9'); add_range(set, 'A', 'F'); add_range(set, 'a', 'f'); }
    else if (name == "word") add_class(set, 'w');
    else if (name == "punct") { add_range(set, '!', '/'); add_range(set, ':', '@'); add_range(set, '[', '`'); add_range(set, '{', '~'); }
    else throw re_error("invalid character class range: [:" + name + ":]");
  }

  std::vector<char32_t> s_;
  std::size_t pos_ = 0;
  bool icase_ = false;
  bool dot_nl_ = false;
};

class compiler {
 public:
  std::vector<re2_pattern::inst> prog;

  void emit(const node& n) {
    using I = re2_pattern::inst;
    switch (n.kind) {
      case node::empty: break;
      case node::chars: {
        I i;
        if (prog.size() > 100000) throw re_error("expression too large");
        i.op = I::ranges;
        i.set = n.set;
        std::sort(i.set.begin(), i.set.end());
        prog.push_back(std::move(i));
        break;
      }
      case node::any: push(n.dot_nl ? I::any_nl : I::any); break;
      case node::bol: push(I::bol); break;
      case node::eol: push(I::eol); break;
      case node::word_b: push(I::word_b); break;
      case node::not_word_b: push(I::not_word_b); break;
      case node::concat:
        for (auto& k : n.kids) emit(k);
        break;
      case node::alt: {
        std::vector<int> jumps;
        for (std::size_t k = 0; k + 1 < n.kids.size(); ++k) {
          int split = push(I::split);
          prog[split].x = size();
          emit(n.kids[k]);
          jumps.push_back(push(I::jmp));
          prog[split].y = size();
        }
        emit(n.kids.back());
        for (int j : jumps) prog[j].x = size();
        break;
      }
      case node::repeat: {
        const node& body = n.kids[0];
        for (int k = 0; k < n.min; ++k) emit(body);
        if (n.max < 0) {  // star
          int split = push(I::split);
          prog[split].x = size();
          emit(body);
          int j = push(I::jmp);
          prog[j].x = split;
          prog[split].y = size();
        } else {
          std::vector<int> splits;
          for (int k = n.min; k < n.max; ++k) {
            int split = push(I::split);
            prog[split].x = size();
            splits.push_back(split);
            emit(body);
          }
          for (int s : splits) prog[s].y = size();
        }
        if (prog.size() > 100000) throw re_error("expression too large");
        break;
      }
    }
  }

  int push(re2_pattern::inst::op_t op) {
    if (prog.size() > 100000) throw re_error("expression too large");
    re2_pattern::inst i;
    i.op = op;
    prog.push_back(std::move(i));
    return size() - 1;
  }
  int size() const { return static_cast<int>(prog.size()); }
};

bool in_set(const re2_pattern::inst& i, char32_t c) {
  for (auto& [lo, hi] : i.set) {
    if (c < lo) return false;
    if (c <= hi) return true;
  }
  return false;
}

bool word_char(char32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

}  // namespace

std::optional<re2_pattern> re2_pattern::compile(std::string_view pattern, std::string* error) {
  try {
    parser p(pattern);
    node root = p.parse();
    compiler c;
    c.emit(root);
    c.push(inst::match);
    re2_pattern out;
    out.prog_ = std::move(c.prog);
    return out;
  } catch (const re_error& e) {
    if (error) *error = std::string("error parsing regexp: ") + e.what();
    return std::nullopt;
  }
}

bool re2_pattern::search(std::string_view text) const {
  auto s = decode_utf8(text);
  const int n = static_cast<int>(prog_.size());
  std::vector<int> clist, nlist, stack;
  std::vector<std::size_t> mark(static_cast<std::size_t>(n), static_cast<std::size_t>(-1));
  // Follows the empty transitions from `pc` at input position `at`; true when a match is reached.
  auto add = [&](std::vector<int>& list, int pc0, std::size_t at) {
    stack.push_back(pc0);
    while (!stack.empty()) {
      int pc = stack.back();
      stack.pop_back();
      auto upc = static_cast<std::size_t>(pc);
      if (mark[upc] == at) continue;
      mark[upc] = at;
      const inst& i = prog_[upc];
      switch (i.op) {
        case inst::jmp: stack.push_back(i.x); break;
        case inst::split: stack.push_back(i.y); stack.push_back(i.x); break;
        case inst::bol: if (at == 0) stack.push_back(pc + 1); break;
        case inst::eol: if (at == s.size()) stack.push_back(pc + 1); break;
        case inst::word_b:
        case inst::not_word_b: {
          bool before = at > 0 && word_char(s[at - 1]);
          bool after = at < s.size() && word_char(s[at]);
          if ((before != after) == (i.op == inst::word_b)) stack.push_back(pc + 1);
          break;
        }
        case inst::match: return true;
        default: list.push_back(pc);
      }
    }
    return false;
  };
  for (std::size_t at = 0;; ++at) {
    // Unanchored search: a new thread may start at every position.
    if (add(clist, 0, at)) return true;
    if (at == s.size()) return false;
    nlist.clear();
    char32_t c = s[at];
    for (int pc : clist) {
      const inst& i = prog_[static_cast<std::size_t>(pc)];
      bool step = (i.op == inst::ranges && in_set(i, c)) || (i.op == inst::any && c != '\n') || i.op == inst::any_nl;
      if (step && add(nlist, pc + 1, at + 1)) return true;
    }
    std::swap(clist, nlist);
  }
}

}  // namespace c5c3::sim::validation
