// The single translation unit that compiles Boost.Asio (with its TLS layer)
// and Boost.Beast, so every other file only instantiates templates.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
