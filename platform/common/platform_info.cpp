// Placeholder translation unit until the engine factory lands.
namespace ioprism::platform {
int platformInfoUnused() { return 0; }
}
