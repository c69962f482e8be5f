// Catch2 v2 has no WithMain target in every packaging: the runner's main lives here.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
