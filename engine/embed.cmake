# Embeds a text file as a C++ character array:
#   cmake -DIN=file -DOUT=file.cpp -DNAME=symbol -DNAMESPACE=hetstruct::engine -P embed.cmake
file(READ "${IN}" content)
file(WRITE "${OUT}" "// Generated from ${IN}; do not edit.\nnamespace ${NAMESPACE} {\nextern const char ${NAME}[] = R\"embedded(${content})embedded\";\n}\n")
