#include "cli/app.h"

int main(int argc, char** argv) { return hetstruct::cli::run(argc, argv); }
