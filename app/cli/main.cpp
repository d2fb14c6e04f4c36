#include <cstdio>
int main() { std::puts("pcplab-cli: under construction"); return 0; }
