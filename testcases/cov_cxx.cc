// cov_cxx.cc - a small C++ target for the instrumentation tests: classes
// with virtual calls, templates, an exception thrown and caught, and inline
// functions, all steered by the input (argv[1], or stdin).  An instrumented
// build must behave exactly like a plain one, and different inputs must
// light different edges.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cov
{

struct Shape {
    virtual ~Shape() = default;
    virtual int area() const = 0;
};

struct Square : Shape {
    int side;
    explicit Square(int s) : side(s)
    {
    }
    int area() const override
    {
        return side * side;
    }
};

struct Rect : Shape {
    int w, h;
    Rect(int a, int b) : w(a), h(b)
    {
    }
    int area() const override
    {
        return w * h;
    }
};

// An inline function used from several places; its copies may be inlined.
inline int clamp_byte(int v)
{
    if (v < 0)
        return 0;
    if (v > 255)
        return 255;
    return v;
}

// A template instantiated for two types.
template <typename T> T largest(const std::vector<T> &v)
{
    if (v.empty())
        throw std::invalid_argument("empty input");
    T best = v[0];
    for (const T &x : v)
        if (best < x)
            best = x;
    return best;
}

int parse_digit(char c)
{
    if (c < '0' || c > '9')
        throw std::runtime_error(std::string("not a digit: ") + c);
    return c - '0';
}

} // namespace cov

static std::string read_input(int argc, char **argv)
{
    if (argc > 1) {
        std::ifstream f(argv[1], std::ios::binary);
        if (!f) {
            std::perror(argv[1]);
            std::exit(2);
        }
        return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

int main(int argc, char **argv)
{
    std::string in = read_input(argc, argv);
    std::vector<std::unique_ptr<cov::Shape>> shapes;
    std::vector<int> ints;
    std::vector<std::string> words;

    for (size_t i = 0; i < in.size(); i++) {
        unsigned char c = in[i];
        if (c == 's')
            shapes.emplace_back(new cov::Square(cov::clamp_byte(int(i) * 3)));
        else if (c == 'r')
            shapes.emplace_back(new cov::Rect(cov::clamp_byte(int(i)), 2));
        ints.push_back(cov::clamp_byte(c * 2 - 100));
        words.push_back(std::string(1, char(c)));
    }

    int total = 0;
    for (const auto &s : shapes)
        total += s->area();

    int status = 0;
    try {
        int best = cov::largest(ints);
        std::string w = cov::largest(words);
        int d = in.empty() ? 0 : cov::parse_digit(in[0]);
        std::printf("shapes=%zu area=%d best=%d word=%d digit=%d\n", shapes.size(), total, best,
                    int((unsigned char)w[0]), d);
    } catch (const std::invalid_argument &e) {
        std::printf("invalid: %s\n", e.what());
        status = 1;
    } catch (const std::exception &e) {
        std::printf("error: %s (shapes=%zu area=%d)\n", e.what(), shapes.size(), total);
        status = 2;
    }
    return status;
}
