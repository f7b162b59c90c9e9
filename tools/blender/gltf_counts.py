# Imports a glTF file into an empty Blender scene and prints what Blender made of it as one line
# "BLENDER_RESULT {json}": objects, mesh objects, meshes, materials, images, triangles.
# Used by tests/interchange when `blender` is on PATH:
#   blender --background --factory-startup --python tools/blender/gltf_counts.py -- FILE.glb
import json
import sys

import bpy
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # numpy >= 1.24 dropped the alias Blender 3.4's glTF add-on still uses

argv = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
result = bpy.ops.import_scene.gltf(filepath=argv[0])
meshes = [o for o in bpy.data.objects if o.type == "MESH"]
triangles = 0
for o in meshes:
    o.data.calc_loop_triangles()
    triangles += len(o.data.loop_triangles)
print("BLENDER_RESULT " + json.dumps({
    "result": sorted(result),
    "objects": len(bpy.data.objects),
    "mesh_objects": len(meshes),
    "meshes": len(bpy.data.meshes),
    "materials": len(bpy.data.materials),
    "images": len(bpy.data.images),
    "triangles": triangles,
}))
